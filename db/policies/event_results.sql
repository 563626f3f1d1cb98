-- Every policy of event_results: the file is the whole set (applying it drops the table's policies
-- first, so a policy removed here is removed from the database).
SELECT public.schema_drop_policies('event_results');

-- Results are a public scoreboard (nicknames and points only), written by the host's side.
CREATE POLICY event_results_read ON event_results FOR SELECT TO portal_app USING (true);
CREATE POLICY event_results_auth ON event_results FOR INSERT TO portal_auth WITH CHECK (true);

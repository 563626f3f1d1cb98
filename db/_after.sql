-- Applied after the changed definitions, in their transaction: nobody but the owner creates
-- objects, and the server checks at start-up that the definitions are current.
REVOKE CREATE ON SCHEMA public FROM portal_auth, portal_leaderboard;
GRANT SELECT ON schema_repeatables TO portal_app;

-- Applied before the changed definitions, in their transaction: the roles that own definer
-- functions may own objects in the schema while ownership is handed to them.
GRANT CREATE ON SCHEMA public TO portal_auth, portal_leaderboard;

-- What a database made with CREATE DATABASE … TEMPLATE does not take from its template, as the
-- statements that give it to the copy: the roles' settings in the database (time zone,
-- timeouts; migrations/0013) and its grants (no temporary tables for the app role; 0012).
-- $1 is the template's name, $2 the copy's. Run by TestDatabase (Swift) and the browser tests'
-- conftest.py, each then executing the statements in the order given.
SELECT format('ALTER ROLE %I IN DATABASE %I SET %s = %L', r.rolname, $2::text,
              split_part(c.setting, '=', 1), substr(c.setting, strpos(c.setting, '=') + 1)) AS statement
FROM pg_db_role_setting s
JOIN pg_database d ON d.oid = s.setdatabase
JOIN pg_roles r ON r.oid = s.setrole
CROSS JOIN unnest(s.setconfig) AS c(setting)
WHERE d.datname = $1::text
UNION ALL
SELECT format('REVOKE ALL ON DATABASE %I FROM PUBLIC', $2::text)
FROM pg_database d WHERE d.datname = $1::text AND d.datacl IS NOT NULL
UNION ALL
SELECT format('GRANT %s ON DATABASE %I TO %s', a.privilege_type, $2::text,
              CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(g.rolname) END)
FROM pg_database d
CROSS JOIN aclexplode(d.datacl) AS a
LEFT JOIN pg_roles g ON g.oid = a.grantee
WHERE d.datname = $1::text AND a.grantee <> d.datdba

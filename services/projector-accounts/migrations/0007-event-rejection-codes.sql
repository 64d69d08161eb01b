-- A rejection travels as its code (STYLE.md → Errors): `unstorable` marks an event the store refused
-- (text Postgres cannot hold, a value out of range); rule rejections keep their reason text for now.
ALTER TABLE events ADD COLUMN rejection_code text;

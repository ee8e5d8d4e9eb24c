-- Whether the connection's settings are locked already (a reader made by warehouse/db.py).
SELECT current_setting('lock_configuration');

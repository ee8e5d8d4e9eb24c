-- A connection made for a user's query: no files, no bar on stdout, no settings changed after.
SET enable_external_access = false;
SET enable_progress_bar = false;
SET lock_configuration = true;

-- A transcript read is logged once per viewer, transcript and minute (services/transcripts.ts looks
-- for the viewer's entry of the last minute): by server, viewer and time, not a scan of the
-- server's whole log.
CREATE INDEX web_logs_actor_idx ON web_logs (guild_id, actor_id, at);

-- Dashboard access through a server's access rules (docs/api.md#who-may-do-what-on-a-server): a member who is not the owner and
-- lacks Administrator and Manage Server may still open a server's dashboard when the server's live
-- configuration gives one of their roles access to some area. `role_access` remembers what the bot
-- found when the user's list was last fetched (only servers with access rules are looked up), so
-- /api/auth/@me lists such servers from stored data; every route under /api/guilds/:server decides
-- afresh with the member's roles (services/server-access.ts).
ALTER TABLE user_guilds ADD COLUMN role_access boolean NOT NULL DEFAULT false;

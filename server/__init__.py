"""The Maester server: online games held by one asyncio process (docs/server.md, docs/protocol.md).

``protocol`` declares every message; ``client`` is the asyncio client library; ``views`` builds what one
seat may see; ``store`` keeps games (SQLite); ``rooms`` runs one game; ``app`` is the WebSocket server.
No Qt here.
"""

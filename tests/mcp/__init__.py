"""The MCP server: every tool through the SDK's client, and over real stdio."""

"""The game server (`interpret serve`, the optional extra `server`): tables played by people in
browsers and bots, every decision stored before any seat hears of it, each seat sent only what
its view holds.  docs/server.md describes it and its protocol."""

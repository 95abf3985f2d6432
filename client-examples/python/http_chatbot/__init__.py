"""The chat bot over plain HTTP/JSON: no gRPC, no generated stubs, only `httpx`.

`client.DamieraHttp` calls the server's HTTP/JSON routes (docs/api.md, "HTTP/JSON"); `bot.HttpChatBot`
answers chat commands with it. For chat platforms and hosts where gRPC is not at hand.
"""

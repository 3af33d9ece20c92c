#!/usr/bin/env python3
"""A stand-in for GitHub's API on 127.0.0.1, for scripts/container-test.sh.

Answers the code-scanning upload (202, then `complete`), the Checks API (201 / 200), a pull
request's files (none) and code scanning's alerts (none listed; a change of state taken), and
appends every request it receives to RECORD as one JSON line (method, path, headers, body). Prints its port on the first line of standard output, then
serves until killed. Usage: standin.py RECORD
"""

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RECORD = sys.argv[1]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _answer(self, code, body):
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _handle(self):
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
        with open(RECORD, "a", encoding="utf-8") as f:
            f.write(json.dumps({"method": self.command, "path": self.path,
                                "headers": dict(self.headers), "body": body}) + "\n")
        path = self.path.split("?")[0]
        if self.command == "POST" and path.endswith("/code-scanning/sarifs"):
            return self._answer(202, {"id": "c0ffee", "url": "https://api.github.com/x"})
        if self.command == "GET" and "/code-scanning/sarifs/" in path:
            return self._answer(200, {"processing_status": "complete"})
        if self.command == "POST" and path.endswith("/check-runs"):
            return self._answer(201, {"id": 7, "name": "hippo-packs",
                                      "html_url": "https://github.com/octo/packs/runs/7"})
        if self.command == "PATCH" and "/check-runs/" in path:
            return self._answer(200, {"id": 7})
        if self.command == "GET" and path.endswith("/files"):
            return self._answer(200, [])
        if self.command == "GET" and path.endswith("/code-scanning/alerts"):
            return self._answer(200, [])
        if self.command == "PATCH" and "/code-scanning/alerts/" in path:
            return self._answer(200, {"number": int(path.rsplit("/", 1)[1]),
                                      "state": json.loads(body or "{}").get("state")})
        return self._answer(404, {"message": "Not Found"})

    do_GET = do_POST = do_PATCH = _handle


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()

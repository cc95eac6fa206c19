"""Requests the page cannot serve: paths that are not its own ASCII, and unexpected errors.

Two aiohttp middlewares, outside every handler:

- :func:`ascii_paths`: every path the page serves is printable ASCII (``/round/3.html``). A
  percent-encoded path decodes to any text, and ``"²".isdigit()`` is true while ``int("²")``
  fails, so ``/round/%C2%B2.html`` reached a handler and ended in a 500. A path with anything
  but printable ASCII (after decoding) is answered 404 before any handler sees it. (Raw
  non-ASCII bytes in the request line never get this far: aiohttp's parser answers 400.)
- :func:`unexpected_errors`: an exception no handler expected is answered by a plain 500 page
  (with the security headers, through ``secure``) and logged as **one line**: the exception's
  type and the line of the page's code it came from, never its message or a traceback (either
  may quote the request: a body, a path, a header), so a hostile request can neither fill the
  log with tracebacks nor write its text into it.
"""

from __future__ import annotations

import logging
import re
import traceback
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

if TYPE_CHECKING:  # aiohttp >= 3.9 names the type; Debian bookworm's 3.8 runs the page too
    from aiohttp.typedefs import Middleware

log = logging.getLogger("companion.arbiter.web")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
_PRINTABLE = re.compile(r"[!-~]*")
_OURS = str(Path(__file__).resolve().parents[1])


def printable_ascii(path: str) -> bool:
    """Whether ``path`` is printable ASCII: no space, control or non-ASCII character."""
    return _PRINTABLE.fullmatch(path) is not None


@web.middleware
async def ascii_paths(request: web.Request, handler: Handler) -> web.StreamResponse:
    if not printable_ascii(request.path):
        raise web.HTTPNotFound()
    return await handler(request)


def where(exc: BaseException) -> str:
    """The innermost line of companion's own code in ``exc``'s traceback (``web.py:123``), or
    the innermost line anywhere: enough to find the fault, nothing of the request."""
    frames = list(traceback.extract_tb(exc.__traceback__))
    ours = [f for f in frames if f.filename.startswith(_OURS)]
    if not (ours or frames):
        return "?"
    frame = (ours or frames)[-1]
    return f"{Path(frame.filename).name}:{frame.lineno} ({frame.name})"


def unexpected_errors(secure: Callable[[web.StreamResponse], None]) -> Middleware:
    """The outermost middleware: a 500 page with ``secure``'s headers for anything unexpected."""

    def answer(request: web.Request, status: int, text: str) -> web.Response:
        response = web.Response(status=status, content_type="text/plain", charset="utf-8",
                                text=text)
        response.force_close()
        if request.writer.output_size > 0 and request.transport is not None:
            request.transport.close()  # a stream already under way: end it, answer nothing
        else:
            secure(response)
        return response

    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except web.HTTPException:
            raise  # aiohttp's own answers (a status and a reason; inner middlewares secure them)
        except HttpProcessingError as exc:  # a malformed body (chunked encoding, say)
            log.info("arbiter page: bad request refused: %s", type(exc).__name__)
            return answer(request, HTTPStatus.BAD_REQUEST, "bad request\n")
        except ConnectionError:  # the client went away: nobody to answer
            log.info("arbiter page: the client went away during a %s", request.method[:10])
            if request.transport is not None:
                request.transport.close()
            return answer(request, HTTPStatus.BAD_REQUEST, "gone\n")
        except Exception as exc:
            if request.transport is None or request.transport.is_closing():
                # The connection was closed under the request (its client left, or the
                # connection guard closed it to make room): nobody to answer, nothing wrong.
                log.debug("arbiter page: %s after the connection closed", type(exc).__name__)
                return answer(request, HTTPStatus.BAD_REQUEST, "gone\n")
            log.error("arbiter page: unexpected %s at %s, answered 500 (a %s request)",
                      type(exc).__name__, where(exc), request.method[:10])
            return answer(request, HTTPStatus.INTERNAL_SERVER_ERROR,
                          "the page could not answer this request (its log has a line "
                          "about it)\n")

    return middleware

"""WebRTC is not HTTP: it never reaches the route handler that guards a page's requests.
So it is off in the browser: a page that tries STUN over UDP and a TURN allocation over
TCP to listeners on this machine reaches neither, from its own window or from a frame's."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from servers import Page, WebServer
from support import require_browser

from evidence_base.words import Render
from extractors.values import Outcome
from flows.catalog import FetchSettings
from flows.fetching import AddressGuard, FetchRequest, fetch_batch

require_browser()

LIMITS = FetchSettings(timeout_s=10, retries=0, user_agent="t", browser_concurrency=1)

# Every way a script can come by a peer connection: its own window's constructors, and
# those of a fresh same-origin frame's window.
ICE = """<html><head><title>Ports</title></head><body><main><p id="out">Tries: none</p></main>
<iframe id="f" src="about:blank"></iframe>
<script>
const servers = [
  {urls: 'stun:127.0.0.1:%(udp)d'},
  {urls: 'turn:127.0.0.1:%(tcp)d?transport=tcp', username: 'u', credential: 'p'},
];
const tried = [];
async function attempt(win, name) {
  for (const key of ['RTCPeerConnection', 'webkitRTCPeerConnection']) {
    try {
      const Peer = win[key];
      if (!Peer) { tried.push(name + ':' + key + ':absent'); continue; }
      const pc = new Peer({iceServers: servers, iceTransportPolicy: 'all'});
      pc.createDataChannel('x');
      await pc.setLocalDescription(await pc.createOffer());
      tried.push(name + ':' + key + ':made');
    } catch (e) { tried.push(name + ':' + key + ':' + e.name); }
  }
}
(async () => {
  await attempt(window, 'window');
  await attempt(document.getElementById('f').contentWindow, 'frame');
  const made = document.createElement('iframe');
  document.body.appendChild(made);
  await attempt(made.contentWindow, 'new-frame');
  setTimeout(() => {
    document.getElementById('out').textContent = 'Tries: ' + tried.join(' ') + ', 5 seats';
  }, 1500);
})();
</script></body></html>"""


@pytest.fixture
def listeners() -> Iterator[tuple[socket.socket, socket.socket]]:
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    udp.setblocking(False)
    tcp = socket.socket()
    tcp.bind(("127.0.0.1", 0))
    tcp.listen(8)
    tcp.setblocking(False)
    yield udp, tcp
    udp.close()
    tcp.close()


def received(udp: socket.socket, tcp: socket.socket) -> tuple[int, int]:
    """Datagrams and connections the listeners were sent."""
    datagrams = connections = 0
    while True:
        try:
            udp.recvfrom(4096)
            datagrams += 1
        except BlockingIOError:
            break
    while True:
        try:
            conn, _ = tcp.accept()
            conn.close()
            connections += 1
        except BlockingIOError:
            break
    return datagrams, connections


@pytest.mark.slow
def test_a_page_cannot_send_stun_or_turn_to_this_machine(
    web: WebServer, listeners: tuple[socket.socket, socket.socket]
) -> None:
    udp, tcp = listeners
    web.routes["/ice"] = Page(ICE % {"udp": udp.getsockname()[1], "tcp": tcp.getsockname()[1]})
    url = web.url("/ice")
    public = AddressGuard(public_origins={web.base.removeprefix("http://")})
    (got,) = fetch_batch(
        [FetchRequest(url, render=Render.BROWSER, obey_robots=False, wait_for="text=5 seats")],
        LIMITS,
        lambda: datetime.now(UTC),
        public,
    )[url]
    assert got.outcome is Outcome.OK, got.error
    assert "5 seats" in (got.text or "")
    time.sleep(1.0)  # anything still in flight from the browser
    assert received(udp, tcp) == (0, 0), got.text
    # the API is gone in every window (the launch flags alone stop UDP, not TURN over TCP)
    assert got.text.count("RTCPeerConnection:absent") == 6, got.text

"""The desk's application in this process (Starlette's TestClient over a real catalog and
database): a decision page before every write, Post/Redirect/Get after it, a quote
written by hand, and the hosts a desk answers."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from keeping_support import T0, Kept
from servers import Page, WebServer
from starlette.testclient import TestClient
from test_keeping import NEW, OLD, RECORD

from evidence_base.errors import EvidenceError
from evidence_cli.desk import desk_app
from evidence_cli.desk_guard import DeskConfig, allowed_hosts

BASE = "http://127.0.0.1:8765"


@pytest.fixture(autouse=True)
def clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EVIDENCE_NOW", (T0 + timedelta(days=1)).isoformat())


@pytest.fixture
def kept(tmp_path: Path) -> Kept:
    k = Kept(tmp_path, RECORD)
    k.refresh({"own": OLD, "blog": OLD})
    k.refresh({"own": NEW, "blog": OLD}, T0 + timedelta(days=1))
    return k


def client(k: Kept, token: str | None = None, **extra: object) -> TestClient:
    cfg = DeskConfig(k.config, k.db, "127.0.0.1", 8765, token, **extra)  # type: ignore[arg-type]
    return TestClient(desk_app(cfg), base_url=BASE, follow_redirects=False)


def token(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found is not None
    return found[1]


def test_update_shows_what_it_writes_then_writes_it_once(kept: Kept) -> None:
    before = kept.file.read_text()
    desk = client(kept)
    index = desk.get("/")
    assert 'action="/update"' in index.text and "Update…" in index.text
    decide = desk.get("/update", params={"record_id": "r", "claim_id": "prize"})
    assert decide.status_code == 200
    assert "$4,000 in GPU credits for the best runs" in decide.text  # the quote now
    assert "$2,500 in GPU credits for the best runs" in decide.text  # the page's words
    assert '<span class="ins">+' in decide.text and '<span class="del">-' in decide.text
    assert kept.file.read_text() == before  # a decision page writes nothing

    form = {"record_id": "r", "claim_id": "prize", "source_id": "own"}
    done = desk.post("/update", data={**form, "csrf": token(decide.text)})
    assert done.status_code == 303 and done.headers["location"].startswith("/done/")
    after = kept.file.read_text()
    assert after != before and "$2,500 in GPU credits" in after
    said = desk.get(done.headers["location"])
    assert said.status_code == 200 and "Updated r/prize" in said.text
    assert "contradicted, fresh -&gt; documented, fresh" in said.text
    # a reload of what it did is a GET: nothing is sent again, nothing written
    assert desk.get(done.headers["location"]).text.count("Updated r/prize") >= 1
    assert kept.file.read_text() == after
    assert desk.get("/done/nope").status_code == 404


def test_a_quote_written_by_hand_where_no_page_has_one(kept: Kept) -> None:
    kept.refresh({"own": "Nothing about credits.", "blog": "Nor here."}, T0 + timedelta(days=1))
    desk = client(kept)
    decide = desk.get("/update", params={"record_id": "r", "claim_id": "teams"})
    assert decide.status_code == 200
    assert "no page has a passage near the quote" in decide.text  # why Update cannot
    assert '<textarea name="quote"' in decide.text
    form = {"record_id": "r", "claim_id": "teams", "csrf": token(decide.text)}
    done = desk.post("/update", data={**form, "quote": "Over 2,000 teams funded"})
    assert done.status_code == 303
    assert 'quote: "Over 2,000 teams funded"' in kept.file.read_text()
    assert "Took your words" in desk.get(done.headers["location"]).text
    # an empty one is refused, the file untouched
    written = kept.file.read_text()
    refused = desk.post("/update", data={**form, "quote": "  "})
    assert refused.status_code == 409 and "an empty quote" in refused.text
    assert kept.file.read_text() == written


def test_an_unknown_claim_is_a_page_that_says_so(kept: Kept) -> None:
    answer = client(kept).get("/update", params={"record_id": "r", "claim_id": "nope"})
    assert answer.status_code == 404 and "no claim" in answer.text


def test_the_hosts_a_desk_answers(kept: Kept) -> None:
    plain = client(kept)
    assert plain.get("/", headers={"Host": "desk.example"}).status_code == 400
    named = client(kept, allow_hosts=allowed_hosts([], "https://desk.example/"))
    assert named.get("/", headers={"Host": "desk.example"}).status_code == 200
    assert named.get("/", headers={"Host": "desk.example:8765"}).status_code == 200
    assert named.get("/", headers={"Host": "evil.example"}).status_code == 400
    ported = client(kept, allow_hosts=allowed_hosts(["box.lan:9000"], None))
    assert ported.get("/", headers={"Host": "box.lan:9000"}).status_code == 200
    assert ported.get("/", headers={"Host": "box.lan"}).status_code == 400


@pytest.mark.parametrize(
    ("names", "url"),
    [(["not a host"], None), (["evil.example/x"], None), ([], "ftp://desk.example/")],
)
def test_a_bad_host_name_is_one_line(names: list[str], url: str | None) -> None:
    with pytest.raises(EvidenceError) as e:
        allowed_hosts(names, url)
    assert "\n" not in str(e.value)


def test_a_word_diff_is_marked_up_and_everything_else_escaped() -> None:
    from evidence_cli.desk_parts import marked

    html = str(marked("a [-<b>4,000</b>-] {+<i>2,500</i>+} x\n[- never closed <s>"))
    assert "<del>&lt;b&gt;4,000&lt;/b&gt;</del>" in html
    assert "<ins>&lt;i&gt;2,500&lt;/i&gt;</ins>" in html
    assert "[- never closed &lt;s&gt;" in html and "<s>" not in html


def test_the_record_page_colours_what_moved(kept: Kept) -> None:
    page = client(kept).get("/records/r")
    assert page.status_code == 200
    assert "<del>$4,000</del>" in page.text or "<del>4,000</del>" in page.text, page.text
    assert "[-" not in page.text and "{+" not in page.text


def test_the_queue_and_the_records_filter(kept: Kept) -> None:
    kept.refresh({"own": NEW, "blog": 404}, T0 + timedelta(days=1))
    desk = client(kept)
    everything = desk.get("/").text
    assert "$4,000 -&gt; $2,500 on own" in everything and "unreachable" in everything
    changed = desk.get("/", params={"kind": "changed"}).text
    assert "$4,000 -&gt; $2,500 on own" in changed and "1 of 2 item(s)" in changed
    failing = desk.get("/", params={"failing": "1"}).text
    assert "$4,000 -&gt; $2,500" not in failing and "HTTP 404" in failing
    none = desk.get("/", params={"q": "no such words"}).text
    assert "None of the 2 item(s) to review" in none
    assert '<a href="/records/r">' not in none  # the records filtered by the words too
    assert '<a href="/records/r">' in desk.get("/", params={"q": "ACME"}).text


def test_a_failing_source_takes_another_url_or_goes(kept: Kept) -> None:
    kept.refresh({"own": NEW, "blog": 404}, T0 + timedelta(days=1))
    desk = client(kept)
    assert "Fix…" in desk.get("/").text
    page = desk.get("/source", params={"record_id": "r", "source_id": "blog"})
    assert page.status_code == 200 and "Replace its url" in page.text
    assert "fetch.archive_fallback" in page.text  # the archived copy, where to turn it on
    form = {"record_id": "r", "source_id": "blog", "csrf": token(page.text)}
    bad = desk.post("/source", data={**form, "action": "replace", "url": "ftp://x.example/"})
    assert bad.status_code == 409 and "only http" in bad.text
    before = kept.file.read_text()
    moved = desk.post(
        "/source", data={**form, "action": "replace", "url": "https://blog.example/acme-2"}
    )
    assert moved.status_code == 303
    after = kept.file.read_text()
    assert after == before.replace("https://blog.example/acme", "https://blog.example/acme-2")
    said = desk.get(moved.headers["location"]).text
    assert "evidence refresh --source r/blog" in said
    gone = desk.post("/source", data={**form, "action": "remove"})
    assert gone.status_code == 303
    text = kept.file.read_text()
    assert "blog" not in text and "# Acme, kept by hand" in text and "id: own" in text
    # the last source of a record is not removed
    page = desk.get("/source", params={"record_id": "r", "source_id": "own"})
    last = desk.post(
        "/source",
        data={"record_id": "r", "source_id": "own", "csrf": token(page.text), "action": "remove"},
    )
    assert last.status_code == 409 and "the only source" in last.text


def test_check_now_of_a_source_not_there_is_refused(kept: Kept) -> None:
    desk = client(kept)
    page = desk.get("/source", params={"record_id": "r", "source_id": "own"})
    assert page.status_code == 200 and "Check now" in page.text
    form = {"record_id": "r", "source_id": "nope", "csrf": token(page.text)}
    refused = desk.post("/check", data=form)
    assert refused.status_code == 409 and "has no source &#39;nope&#39;" in refused.text
    assert desk.get("/check/nope").status_code == 404


def test_tokens_of_any_text_are_refused_never_a_crash(kept: Kept) -> None:
    desk = client(kept, token="s3cret")
    for header in ("Bearer é", "Bearer \u2028"):  # (sent as UTF-8 bytes, as a client may)
        answer = desk.get("/", headers={"Authorization": header.encode()})
        assert answer.status_code == 401
    assert desk.get("/", params={"token": "ünïcode"}).status_code == 401
    cookie = {"Cookie": "evidence_token_8765=é".encode()}
    assert desk.get("/", headers=cookie).status_code == 401
    ok = client(kept, token="s3cret")
    page = ok.get("/", headers={"Authorization": "Bearer s3cret"})
    assert page.status_code == 200
    # the page's cookie is this desk's port's own: another desk on the host keeps its own
    assert "evidence_desk_8765" in page.headers["set-cookie"]
    form = {"record_id": "r", "claim_id": "prize", "csrf": "ünïcode"}
    refused = ok.post("/update", data=form, headers={"Authorization": "Bearer s3cret"})
    assert refused.status_code == 403


def test_the_token_from_a_file_stays_out_of_the_process_list(tmp_path: Path) -> None:
    from evidence_cli.commands.keeping import desk_token

    file = tmp_path / "token"
    file.write_text("s3cret\n")
    assert desk_token(None, str(file)) == "s3cret"
    file.write_text("\n")
    with pytest.raises(EvidenceError, match="first line is empty"):
        desk_token(None, str(file))
    with pytest.raises(EvidenceError, match="cannot read it"):
        desk_token(None, str(tmp_path / "none"))


def test_any_two_snapshots_compared_inline_and_side_by_side(kept: Kept) -> None:
    kept.refresh({"own": NEW.replace("1,900", "2,100"), "blog": OLD}, T0 + timedelta(days=2))
    desk = client(kept)
    assert "/compare?record_id=r&amp;source_id=own" in desk.get("/records/r").text
    newest = desk.get("/compare", params={"record_id": "r", "source_id": "own"})
    assert newest.status_code == 200
    assert "<del>1,900</del>" in newest.text and "<ins>2,100</ins>" in newest.text
    assert "$4,000" not in newest.text.split("Inline")[1]  # the two newest: 2,500 both
    ids = [int(i) for i in re.findall(r'<option value="(\d+)"', newest.text)]
    first, last = min(ids), max(ids)
    span = desk.get(
        "/compare", params={"record_id": "r", "source_id": "own", "a": first, "b": last}
    )
    inline = span.text.split("<h2>Inline</h2>")[1].split("<h2>Side by side</h2>")[0]
    assert "<del>$4,000</del>" in inline and "<ins>$2,500</ins>" in inline
    sides = span.text.split("<h2>Side by side</h2>")[1]
    left, right = sides.split("</pre>")[0], sides.split("</pre>")[1]
    assert "<del>$4,000</del>" in left and "<ins>" not in left
    assert "<ins>$2,500</ins>" in right and "<del>" not in right
    assert desk.get("/compare", params={"record_id": "r", "source_id": "nope"}).status_code == 404


def test_add_from_a_url_a_new_record_or_a_source(kept: Kept, web: WebServer) -> None:
    import html

    from flows.catalog import load_catalog

    web.routes["/offer"] = Page(
        "<html><head><title>Nimbus research credits</title></head><body><main>"
        "<h1>Nimbus research credits</h1><p>Each lab receives $3,000 in cloud credits a "
        "year, and applications are open until the end of March.</p><p>Labs apply through "
        "the form on this page; a committee reads every proposal within two weeks.</p>"
        "</main></body></html>"
    )
    desk = client(kept)
    page = desk.get("/add")
    assert page.status_code == 200 and 'name="url"' in page.text
    form = {"csrf": token(page.text), "action": "suggest", "url": web.url("/offer")}
    read = desk.post("/add", data=form)
    assert read.status_code == 303
    shown = desk.get(read.headers["location"]).text
    found = re.search(r'<textarea name="yaml"[^>]*>(.*?)</textarea>', shown, re.S)
    assert found is not None and "$3,000 in cloud credits" in html.unescape(found[1])
    suggested = html.unescape(found[1])
    assert len(load_catalog(kept.config).records) == 1  # nothing written yet
    wrote = desk.post("/add", data={"csrf": form["csrf"], "action": "write", "yaml": suggested})
    assert wrote.status_code == 303
    catalog = load_catalog(kept.config)
    assert len(catalog.records) == 2
    again = desk.post("/add", data={"csrf": form["csrf"], "action": "write", "yaml": suggested})
    assert again.status_code == 409 and "already" in again.text
    # the same page as a third-party source of an existing record, in its own file
    added = desk.post("/add", data={**form, "record_id": "r"})
    assert added.status_code == 303
    assert web.url("/offer") in kept.file.read_text()
    assert "# Acme, kept by hand" in kept.file.read_text()


def test_primaries_that_disagree_settled_by_keeping_one_page(kept: Kept) -> None:
    desk = client(kept)
    page = desk.get("/scope", params={"record_id": "r", "claim_id": "prize"})
    assert page.status_code == 200 and "Keep own (primary)" in page.text
    form = {"record_id": "r", "claim_id": "prize", "source_id": "own", "csrf": token(page.text)}
    done = desk.post("/scope", data=form)
    assert done.status_code == 303
    text = kept.file.read_text()
    assert '"$4,000 in GPU credits for the best runs"   # the headline\n' in text
    assert (
        '    quote: "$4,000 in GPU credits for the best runs"   # the headline\n'
        "    sources: [own]\n  - id: teams"
    ) in text
    assert "checked on own only" in desk.get(done.headers["location"]).text
    refused = desk.post("/scope", data={**form, "source_id": "nope"})
    assert refused.status_code == 409


def test_other_login_accounts_are_named_for_a_loopback_desk(tmp_path: Path) -> None:
    from evidence_cli.commands.keeping import other_accounts

    passwd = tmp_path / "passwd"
    passwd.write_text(
        "root:x:0:0:root:/root:/bin/bash\n"
        "daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
        "dana:x:1000:1000::/home/dana:/bin/bash\n"
        "me:x:1001:1001::/home/me:/bin/zsh\n"
        "svc:x:1002:1002::/srv:/bin/false\n"
        "nobody:x:65534:65534::/nonexistent:/usr/sbin/nologin\n"
    )
    assert other_accounts(passwd, me=1001) == ["dana"]
    assert other_accounts(tmp_path / "none", me=0) == []


def test_the_database_as_it_stands_is_said_once_for_every_route(kept: Kept) -> None:
    missing = client(kept)
    kept.db.rename(kept.db.with_suffix(".moved"))
    try:
        for path in ("/", "/records/r", "/compare?record_id=r&source_id=own"):
            answer = missing.get(path)
            assert answer.status_code == 503, path
            assert "The database cannot be read" in answer.text, path
    finally:
        kept.db.with_suffix(".moved").rename(kept.db)
    assert client(kept).get("/").status_code == 200


def test_confirm_writes_only_the_words_that_were_shown(kept: Kept) -> None:
    desk = client(kept)
    decide = desk.get("/update", params={"record_id": "r", "claim_id": "prize"})
    before = kept.file.read_text()
    form = {"record_id": "r", "claim_id": "prize", "source_id": "own"}
    shown = {**form, "csrf": token(decide.text), "words": "Teams get $3,000 in GPU credits"}
    moved = desk.post("/update", data=shown)  # the page moved between the look and Confirm
    assert moved.status_code == 409 and "changed since they were shown" in moved.text
    assert kept.file.read_text() == before
    assert 'name="words" value="' in decide.text

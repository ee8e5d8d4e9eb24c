"""The commands below the command line, one module each, imported by the CLI only when
it runs that command (a read command never imports Prefect): a one-off refresh (`run`),
`serve`, `gc`, `reextract`, `suggest`, `export`, the catalog checked offline (`check`,
`plan`, both reading it through `offline`), the catalog kept (`review`, `accept`,
`update`, and `sources`: a dead source's url replaced or its entry removed), what pages
settle proposed as a pull request (`propose`, through the forge's API in `forge`), and
what the site's and the desk's pages show (`pages`). They sit above the flow, which two
of them run; nothing in flows/ imports them."""

__all__ = [
    "accept",
    "check",
    "export",
    "forge",
    "gc",
    "offline",
    "pages",
    "plan",
    "propose",
    "reextract",
    "review",
    "run",
    "serve",
    "sources",
    "suggest",
    "update",
]

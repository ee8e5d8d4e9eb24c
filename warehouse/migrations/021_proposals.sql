-- 021: settled evidence proposed as a pull request (`evidence propose`). Each proposal
-- of a branch (the commit it left the branch at, the pull request it opened), and each
-- item it carried: a closed pull request not merged declines its items, which are not
-- proposed again until the page's words move again.
CREATE TABLE store.proposals (
    branch VARCHAR NOT NULL,
    head_commit VARCHAR NOT NULL,
    base_commit VARCHAR NOT NULL,
    proposed_at TIMESTAMPTZ NOT NULL,
    pull_request INTEGER,              -- its number on the forge, once opened
    pull_url VARCHAR
);
CREATE TABLE store.proposal_items (
    branch VARCHAR NOT NULL,
    head_commit VARCHAR NOT NULL,
    record_id VARCHAR NOT NULL,
    claim_id VARCHAR NOT NULL,
    source_id VARCHAR NOT NULL,
    words VARCHAR NOT NULL,            -- the quote it proposed
    declined_at TIMESTAMPTZ            -- its pull request closed without merging
);

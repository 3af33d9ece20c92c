//! The integration tests, one binary: one module per group, each test reachable by its path
//! (`cargo test --test it ci_review::` runs a group). The tests a tool outside cargo must be
//! installed for are ignored with the reason and run with `--ignored` where `.ci/run` installs it
//! (docs/architecture.md, "The test suite"). `tests/fixtures.rs` is a binary of its own.

#[path = "../common/mod.rs"]
mod common;
// The fixture variants written as the good pack plus changes, built for schemas' documents; its
// control runs in the fixture binary.
#[allow(dead_code)]
#[path = "../fixture_setup/mod.rs"]
mod fixture_setup;

mod allowances;
mod budget;
mod ci;
mod ci_action;
mod ci_annotations;
mod ci_api;
mod ci_checkout;
mod ci_comment;
mod ci_commit;
mod ci_discovery;
mod ci_dismiss;
mod ci_events;
mod ci_gate;
mod ci_hidden_packs;
mod ci_home;
mod ci_http;
mod ci_network;
mod ci_outputs;
mod ci_pacing;
mod ci_registry;
mod ci_review;
mod ci_review_base;
mod ci_root;
mod ci_tokens;
mod ci_workspace;
mod cli;
mod completions;
mod conformance;
mod decoded_text;
mod docker;
mod docs;
mod escaped_outputs;
mod examples;
mod fingerprint;
mod fix_formats;
mod format_parts;
mod formats;
mod fuzz_targets;
mod hidden_text;
mod hostile;
mod interrupt;
mod language_server;
mod legitimate;
mod page_fidelity;
mod positions;
mod precommit;
mod print_prompts;
mod properties;
mod release;
mod report_writes;
mod sarif;
mod sarif_uris;
mod schemas;
mod special_files;
mod spellings;
mod test_command;

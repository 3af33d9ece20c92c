//! hippo-packs: checks and tests hippo packs.
//!
//! The layers, lowest first (docs/architecture.md; every import points down): [`core`] values;
//! [`secrets`] (the secret engine) and [`system`] (files, folders and signals at the system's edge); [`model`] (the parsed documents) and [`pack`] (the walk);
//! [`rules`]; [`dream`] (the pass engine); [`outcome`], [`check`], [`fix`] (`check --fix`) and [`case_runner`] (`test`: runs a pack's cases); [`report`] (renderers); `server` (the language server);
//! [`github`]; [`ci`] (the Action); [`cli`].

// The crate's documentation is for the people who work on it, built with every private item
// (`cargo doc --document-private-items`, run by .ci/run): links to private items are the point.
#![allow(rustdoc::private_intra_doc_links)]

mod allow;
mod case_runner;
pub mod check;
mod ci;
pub mod cli;
pub mod core;
pub mod dream;
mod fix;
mod github;
mod label;
pub mod model;
pub mod outcome;
pub mod pack;
mod repo;
pub mod report;
pub mod rules;
pub mod secrets;
mod server;
mod system;

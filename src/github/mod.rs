//! GitHub, for `hippo-packs ci` only: the environment a container action gets, the event,
//! the pull request's changed files, the code-scanning upload and its alerts, and the step
//! outputs. Nothing else in the crate touches the network or reads `GITHUB_*`.

pub mod alerts;
pub mod checkout;
pub mod checks;
pub mod client;
pub mod command;
pub mod env;
pub mod event;
pub mod outputs;
pub mod pulls;
pub mod transport;
pub mod upload;

//! (built by the reports work)
use super::{Mode, PackReport};

pub fn render(_reports: &[PackReport], _mode: Mode) -> String {
    String::new()
}

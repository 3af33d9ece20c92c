//! (built by the reports work)
use super::PackReport;

pub fn render(_reports: &[PackReport]) -> String {
    String::new()
}

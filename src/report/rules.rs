//! `hippo-packs rules` (built by the reports work)

/// The catalogue, or one rule explained; `Err` is an unknown rule's message.
pub fn render(rule: Option<&str>) -> Result<String, String> {
    match rule {
        None => Ok(crate::rules::catalogue()
            .iter()
            .map(|r| format!("{}\t{}\n", r.id, r.summary))
            .collect()),
        Some(id) => crate::rules::find(id)
            .map(|r| format!("{}\n\n{}\n\n{}\n", r.id, r.description, r.help))
            .ok_or_else(|| format!("error no rule named {id}\n")),
    }
}

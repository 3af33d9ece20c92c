//! The run's log: what happened to each call, proposal and note, and each event as the
//! one-line reason a failed case shows.

/// One line of the run's log (for `--print-prompts` readers and for tests).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Event {
    /// A call not made: the prompt could not fit the budget without any turn.
    Skipped { notes: Vec<String> },
    /// A reply, or an element of it, that failed validation, and why.
    Invalid {
        call: usize,
        element: Option<usize>,
        why: String,
    },
    /// A proposal and the reviewer's verdict, with the reviewer's `notes` (`None` when its
    /// answer was not the reply contract's object).
    Reviewed {
        call: usize,
        proposal: usize,
        note: String,
        confirmed: bool,
        reviewer_note: Option<String>,
    },
    /// A note a session declares that the pass never sent: missing from the workspace, or left
    /// out by `note_paths` or `note_types` (`why` says which).
    Dropped { note: String, why: String },
    /// A call of the model or the reviewer that failed, or a change that could not be written.
    Error { call: usize, error: String },
}

impl Event {
    /// The event as a reason a case failed, in one line (`None`: a confirmed proposal, which
    /// explains nothing by itself).
    pub(crate) fn reason(&self) -> Option<String> {
        Some(match self {
            Event::Skipped { notes } => format!(
                "a call for {} was not made: the prompt does not fit input_budget_bytes",
                notes.join(", ")
            ),
            Event::Invalid {
                call,
                element: None,
                why,
            } => format!("call {call}: the reply was refused: {why}"),
            Event::Invalid {
                call,
                element: Some(e),
                why,
            } => match why.split_once(": ") {
                Some((rule, rest)) if rule.chars().all(|c| c.is_ascii_digit()) => {
                    format!("call {call}: element {e} refused by validation rule {rule}: {rest}")
                }
                _ => format!("call {call}: element {e} refused by validation: {why}"),
            },
            Event::Reviewed {
                confirmed: true, ..
            } => return None,
            Event::Reviewed {
                call,
                proposal,
                note,
                reviewer_note,
                ..
            } => match reviewer_note {
                Some(n) => format!(
                    "call {call}: the reviewer rejected proposal {proposal} for {note}: \"{n}\""
                ),
                None => format!(
                    "call {call}: the reviewer rejected proposal {proposal} for {note}: its answer is not {{\"verdict\", \"notes\"}}"
                ),
            },
            Event::Dropped { note, why } => format!("note {note} was not sent: {why}"),
            Event::Error { call, error } => format!("call {call}: {error}"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_event_reads_as_a_reason() {
        let rejected = Event::Reviewed {
            call: 1,
            proposal: 2,
            note: "notes/Log.md".into(),
            confirmed: false,
            reviewer_note: Some("outside the final section".into()),
        };
        assert_eq!(
            rejected.reason().unwrap(),
            "call 1: the reviewer rejected proposal 2 for notes/Log.md: \"outside the final section\""
        );
        let invalid = Event::Invalid {
            call: 1,
            element: Some(1),
            why: "5: session s has no turn 7".into(),
        };
        assert_eq!(
            invalid.reason().unwrap(),
            "call 1: element 1 refused by validation rule 5: session s has no turn 7"
        );
        let dropped = Event::Dropped {
            note: "notes/x.md".into(),
            why: "left out by note_paths".into(),
        };
        assert_eq!(
            dropped.reason().unwrap(),
            "note notes/x.md was not sent: left out by note_paths"
        );
        let confirmed = Event::Reviewed {
            call: 1,
            proposal: 1,
            note: "notes/Log.md".into(),
            confirmed: true,
            reviewer_note: None,
        };
        assert_eq!(
            confirmed.reason(),
            None,
            "control: a confirmation explains nothing"
        );
    }
}

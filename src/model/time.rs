//! RFC 3339 timestamps: `2026-11-01T10:00:00.000Z`, read as section 5.6's `date-time` grammar
//! reads them. chrono is a dependency (`ci`'s clock), but its `parse_from_rfc3339` also reads
//! what that grammar does not: a space between the date and the time, and U+2212 MINUS SIGN
//! before the offset. A transcript's timestamp is one of hippo's, which writes the grammar's
//! form; reading the others would change which turns the transcript rules can date, so this
//! file keeps the grammar's reading (the test `chrono_reads_more_than_the_grammar` holds the
//! reason true).

/// Nanoseconds since 1970-01-01T00:00:00Z of an RFC 3339 `date-time`
/// (`YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`, `T` and `Z` in either case), or `None`
/// when the text is not one. A leap second (`:60`) is accepted and counted as the next second.
pub(crate) fn parse_rfc3339(s: &str) -> Option<i128> {
    let b = s.as_bytes();
    if b.len() < 20 {
        return None;
    }
    // A fixed-width run of ASCII digits as a number (at most four digits: no overflow).
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        b.get(r)?.iter().try_fold(0i64, |n, &d| {
            d.is_ascii_digit().then(|| n * 10 + i64::from(d - b'0'))
        })
    };
    let year = num(0..4)?;
    let month = num(5..7)?;
    let day = num(8..10)?;
    let hour = num(11..13)?;
    let minute = num(14..16)?;
    let second = num(17..19)?;
    if b[4] != b'-'
        || b[7] != b'-'
        || !matches!(b[10], b'T' | b't')
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    if !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
        || hour > 23
        || minute > 59
        || second > 60
    {
        return None;
    }
    let mut i = 19;
    let mut nanos: i128 = 0;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return None;
        }
        // The first nine digits are the nanoseconds; finer digits are dropped.
        let digits = &b[start..i.min(start + 9)];
        let value = digits
            .iter()
            .fold(0i64, |n, &d| n * 10 + i64::from(d - b'0'));
        nanos = i128::from(value * 10i64.pow(9 - digits.len() as u32));
    }
    let offset_minutes: i64 = match b.get(i) {
        Some(b'Z' | b'z') if i + 1 == b.len() => 0,
        Some(&sign @ (b'+' | b'-')) if i + 6 == b.len() => {
            let oh = num(i + 1..i + 3)?;
            let om = num(i + 4..i + 6)?;
            if b[i + 3] != b':' || oh > 23 || om > 59 {
                return None;
            }
            let m = oh * 60 + om;
            if sign == b'+' { m } else { -m }
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    let secs = days * 86_400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
    Some(i128::from(secs) * 1_000_000_000 + nanos)
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A duration as the window message writes it: `25h 03m` (whole minutes, rounded down).
pub(crate) fn hours_minutes(nanos: i128) -> String {
    // Rounded up: 23 h and one millisecond is over the window, so it must not read `23h 00m`.
    let minutes = (nanos + 59_999_999_999).div_euclid(60_000_000_000);
    format!("{}h {:02}m", minutes / 60, minutes % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_span_is_rounded_up_to_the_minute() {
        let hour = 3_600_000_000_000i128;
        assert_eq!(hours_minutes(23 * hour + 1_000_000), "23h 01m");
        assert_eq!(
            hours_minutes(23 * hour),
            "23h 00m",
            "control: an exact span"
        );
        assert_eq!(hours_minutes(25 * hour + 3 * 60_000_000_000), "25h 03m");
    }

    #[test]
    fn fractions_keep_nine_digits() {
        let t = |s: &str| parse_rfc3339(s).unwrap();
        assert_eq!(t("1970-01-01T00:00:00.123456789Z"), 123_456_789);
        assert_eq!(t("1970-01-01T00:00:00.123456789999Z"), 123_456_789);
        assert_eq!(t("1970-01-01T00:00:00.000000001Z"), 1);
        assert_eq!(
            t("1970-01-01T00:00:00.1+01:00"),
            100_000_000 - 3_600_000_000_000
        );
        // control: a digit that is not one is refused
        assert_eq!(parse_rfc3339("1970-01-01T00:0a:00Z"), None);
    }

    #[test]
    fn parses_rfc3339() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_rfc3339("1970-01-01T00:00:01.5Z"), Some(1_500_000_000));
        assert_eq!(
            parse_rfc3339("1970-01-01T01:00:00+01:00"),
            Some(0),
            "an offset moves the instant"
        );
        let a = parse_rfc3339("2026-11-01T10:00:00.000Z").unwrap();
        let b = parse_rfc3339("2026-11-02T11:03:00.000Z").unwrap();
        assert_eq!(hours_minutes(b - a), "25h 03m");
        assert!(parse_rfc3339("2024-02-29T00:00:00z").is_some(), "leap day");
    }

    /// Why the hand-written reading stays: chrono's reads two forms the grammar does not.
    #[test]
    fn chrono_reads_more_than_the_grammar() {
        for wider in ["2026-11-01 10:00:00Z", "2026-11-01T10:00:00\u{2212}01:00"] {
            assert!(
                chrono::DateTime::parse_from_rfc3339(wider).is_ok(),
                "chrono reads {wider:?}"
            );
            assert_eq!(parse_rfc3339(wider), None, "{wider:?} is not a date-time");
        }
        // control: both read the grammar's form to the same instant
        let same = "2026-11-01T10:00:00.5-01:00";
        let chrono = chrono::DateTime::parse_from_rfc3339(same).expect("a date-time");
        let nanos = i128::from(chrono.timestamp()) * 1_000_000_000
            + i128::from(chrono.timestamp_subsec_nanos());
        assert_eq!(parse_rfc3339(same), Some(nanos));
    }

    #[test]
    fn rejects_what_is_not_rfc3339() {
        for bad in [
            "",
            "2026-11-01",
            "2026-11-01T10:00:00",
            "2026-11-01 10:00:00Z",
            "2026-13-01T10:00:00Z",
            "2025-02-29T10:00:00Z",
            "2026-11-01T24:00:00Z",
            "2026-11-01T10:00:00.Z",
            "2026-11-01T10:00:00+0100",
            "2026-11-01T10:00:00Zjunk",
            "２０２６-11-01T10:00:00Z",
            "yesterday at noon, roughly",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad:?} is not RFC 3339");
        }
    }
}

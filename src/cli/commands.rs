//! Dispatch: one function per command, each returning its exit code.

use std::io::Write;
use std::path::Path;

use super::args::{CheckArgs, Cli, ColorWhen, Command, Format, OutputArgs, RulesFormat, TestArgs};
use super::exit::{EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, print};
use super::paths::{self, Output};
use super::select::Selection;
use super::sink::Sink;
use crate::outcome::{Mode, PackReport};
use crate::report;
use crate::report::junit::JunitRenderer;
use crate::report::rendering::{Render, Rendering};
use crate::report::sarif::{MAX_RESULTS, SarifRenderer};

pub(crate) fn dispatch(cli: Cli) -> anyhow::Result<i32> {
    match cli.command {
        Command::Check(a) => check(a),
        Command::Test(a) => test(a),
        Command::Rules(a) => match match a.format {
            RulesFormat::Text => report::rule_reference::render(a.rule.as_deref()),
            RulesFormat::Json => report::rule_reference::render_json(a.rule.as_deref()),
        } {
            Ok(text) => {
                print(&text)?;
                Ok(EXIT_OK)
            }
            Err(text) => {
                eprint!("{text}");
                Ok(EXIT_USAGE)
            }
        },
        Command::Init(a) => super::init::run(&a),
        Command::Completions(a) => {
            print(&super::shell::completions(a.shell))?;
            Ok(EXIT_OK)
        }
        Command::Schema(a) => {
            use super::args::SchemaDocument as S;
            use report::schemas::Document as D;
            let doc = match a.document {
                S::Pack => D::Pack,
                S::Pass => D::Pass,
                S::Case => D::Case,
                S::HippoPacks => D::Config,
            };
            print(&report::schemas::render(doc))?;
            Ok(EXIT_OK)
        }
        Command::Manpage => {
            print(&super::shell::manual()?)?;
            Ok(EXIT_OK)
        }
        Command::Server => crate::server::run().map(|()| EXIT_OK),
        Command::Ci(a) => super::ci_args::run(a),
        Command::StubModel(a) => super::stub_model::run(a).map(|()| EXIT_OK),
    }
}

/// A usage error: one line on standard error, exit 2.
fn usage(line: &str) -> anyhow::Result<i32> {
    eprintln!("{line}");
    Ok(EXIT_USAGE)
}

fn check(a: CheckArgs) -> anyhow::Result<i32> {
    if a.junit.is_some() {
        return usage(
            "hippo-packs: --junit belongs to `test`: JUnit holds fixture case results, which `check` does not run (hippo-packs test DIR --junit FILE)",
        );
    }
    if let Err(line) = validate_outputs(&a.output, None, None) {
        return usage(&line);
    }
    let selection = match Selection::parse(&a.select, &a.ignore) {
        Ok(s) => s,
        Err(line) => return usage(&line),
    };
    let targets = super::targets::expand(&a.dirs);
    let dirs = &targets.dirs;
    let mut config = match super::config::load(&a.output, dirs) {
        Ok(c) => c,
        Err(line) => return usage(&line),
    };
    let mut sink = Sink::new(a.output.output_file.as_deref());
    if a.diff || a.fix {
        // The fixes read the allowances from their own copy, so that the report's count of
        // what each allowance took is the report's alone.
        if let Some(code) = fixes(&a, dirs, config.clone(), &mut sink)? {
            return Ok(code);
        }
    }
    // (fails with --deny-warnings, fails without, warnings)
    let mut tally = (false, false, 0);
    let mut count = |r: &PackReport| {
        tally.0 |= r.failed(a.deny_warnings);
        tally.1 |= r.failed(false);
        tally.2 += r.warnings();
    };
    let text = a.output.format.renderer(a.output.verbose);
    let streams = a.output.format == Format::Text && a.output.sarif.is_none() && !a.statistics;
    let unused = if streams {
        // The text report streams: each pack is printed as soon as it and the packs before
        // it are checked, and only its verdict is kept.
        let (mut result, mut i) = (Ok(()), 0);
        crate::check::check_each(dirs, |mut r| {
            targets.keep_named(i, &mut r);
            i += 1;
            selection.apply(&mut r);
            if let Some(c) = config.as_mut() {
                c.apply(&mut r);
            }
            count(&r);
            if result.is_ok() {
                let one = std::slice::from_ref(&r);
                result = streamed(text, one, &[], Mode::Check, a.quiet, &mut sink);
            }
        });
        result?;
        let unused = unused_allowances(config.as_ref(), false);
        streamed(text, &[], &unused, Mode::Check, a.quiet, &mut sink)?;
        unused
    } else {
        let mut reports = crate::fix::check_all_suggested(dirs);
        for (i, r) in reports.iter_mut().enumerate() {
            targets.keep_named(i, r);
            selection.apply(r);
            if let Some(c) = config.as_mut() {
                c.apply(r);
            }
        }
        reports.iter().for_each(&mut count);
        let unused = unused_allowances(config.as_ref(), false);
        print_checked(&a, &reports, &unused, &mut sink)?;
        unused
    };
    sink.finish()?;
    let (mut failed, failed_without_warnings, warnings) = tally;
    failed |= a.deny_warnings && !unused.is_empty();
    if failed && !failed_without_warnings {
        super::hints::deny_warnings(warnings + unused.len());
    }
    Ok(if failed { EXIT_FINDINGS } else { EXIT_OK })
}

/// `check`'s report in the format asked for, or its `--statistics`.
fn print_checked(
    a: &CheckArgs,
    reports: &[PackReport],
    unused: &[crate::core::Diagnostic],
    sink: &mut Sink,
) -> anyhow::Result<()> {
    if a.statistics {
        return sink.print(&match a.output.format {
            Format::Json => report::statistics::json(reports),
            _ => report::statistics::text(reports),
        });
    }
    let view = View {
        mode: Mode::Check,
        quiet: a.quiet,
    };
    emit(reports, view, &a.output, None, unused, sink)
}

/// `--fix` (the fixes made, named on standard error; `None`: go on and check) or `--diff` (the
/// diff printed; its exit code).
fn fixes(
    a: &CheckArgs,
    dirs: &[String],
    config: Option<crate::allow::Config>,
    sink: &mut Sink,
) -> anyhow::Result<Option<i32>> {
    let mut packs = crate::fix::plan_all(dirs, config);
    if !a.diff {
        packs.iter_mut().for_each(crate::fix::write);
        eprint!("{}", report::fixes::fixed(&packs));
        return Ok(None);
    }
    let diff = report::fixes::diff(&packs, sink.is_stdout() && terminal());
    sink.print(&diff)?;
    let sink = std::mem::replace(sink, Sink::stdout());
    sink.finish()?;
    Ok(Some(if diff.is_empty() {
        EXIT_OK
    } else {
        EXIT_FINDINGS
    }))
}

/// A streamed report's next piece (a pack's lines, or the unused allowances after the last),
/// written out at once.
fn streamed(
    renderer: &dyn Render,
    reports: &[PackReport],
    unused: &[crate::core::Diagnostic],
    mode: Mode,
    quiet: bool,
    out: &mut Sink,
) -> std::io::Result<()> {
    let run = Rendering {
        unused,
        quiet,
        ..Rendering::new(reports, mode)
    };
    renderer.render(&run, out)?;
    out.flush()
}

/// Whether standard output is a terminal.
fn terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal()
}

/// What a report shows: which command made it, and whether `--quiet` leaves the lines that
/// are not findings out.
#[derive(Clone, Copy)]
struct View {
    mode: Mode,
    quiet: bool,
}

fn test(mut a: TestArgs) -> anyhow::Result<i32> {
    if let Err(line) = validate_outputs(&a.output, a.junit.as_deref(), a.prompts_dir.as_deref()) {
        return usage(&line);
    }
    let mut config = match super::config::load(&a.output, &a.dirs) {
        Ok(c) => c,
        Err(line) => return usage(&line),
    };
    let options = crate::case_runner::TestOptions {
        // Moved, not copied: a registry passes thousands of folders.
        dirs: std::mem::take(&mut a.dirs),
        case: a.case.clone(),
        model_command: a.model_command.clone(),
        keep_prompts: a.print_prompts || a.prompts_dir.is_some(),
        one_of_several: false,
    };
    // `--case` decides its one `no case` line over every pack, so it is not streamed.
    if a.output.format == Format::Text
        && a.output.sarif.is_none()
        && a.junit.is_none()
        && a.case.is_none()
        && a.output.output_file.is_none()
    {
        return stream_test(&a, &options, config);
    }
    let mut reports = crate::case_runner::test_all(&options)?;
    if let Some(c) = config.as_mut() {
        reports.iter_mut().for_each(|r| c.apply(r));
    }
    let unused = unused_allowances(config.as_ref(), a.case.is_some());
    let mut sink = Sink::new(a.output.output_file.as_deref());
    let view = View {
        mode: Mode::Test,
        quiet: false,
    };
    emit(
        &reports,
        view,
        &a.output,
        a.junit.as_deref(),
        &unused,
        &mut sink,
    )?;
    sink.finish()?;
    super::hints::no_cases(&reports, a.case.is_some());
    if let Some(dir) = &a.prompts_dir {
        super::prompts_dir::write(&reports, dir)?;
    } else if a.print_prompts {
        eprint!("{}", report::prompts::render(&reports));
    }
    Ok(verdict(&reports, false))
}

/// `test`'s text report, streamed as `check`'s is: each pack is printed (allowances applied) as
/// soon as it and the packs before it are tested, and only what follows the report is kept: the
/// packs without a case (for the hint), and the prompts `--print-prompts` puts on standard error
/// after it, in an unnamed temporary file meanwhile. `--prompts-dir` files are written pack by
/// pack.
fn stream_test(
    a: &TestArgs,
    options: &crate::case_runner::TestOptions,
    mut config: Option<crate::allow::Config>,
) -> anyhow::Result<i32> {
    use std::io::{Seek, Write};
    let mut spool = match (a.print_prompts, &a.prompts_dir) {
        (true, None) => Some(tempfile::tempfile()?),
        _ => None,
    };
    let (mut failed, mut without_cases, mut result) = (false, Vec::new(), Ok(()));
    let (text, mut out) = (a.output.format.renderer(a.output.verbose), Sink::stdout());
    crate::case_runner::test_each(options, |mut r| {
        if let Some(c) = config.as_mut() {
            c.apply(&mut r);
        }
        failed |= r.failed(false);
        if result.is_ok() {
            let one = std::slice::from_ref(&r);
            result = streamed(text, one, &[], Mode::Test, false, &mut out).map_err(Into::into);
        }
        if result.is_ok() {
            result = match (&a.prompts_dir, &mut spool) {
                (Some(dir), _) => super::prompts_dir::write(std::slice::from_ref(&r), dir),
                (None, Some(f)) => f
                    .write_all(report::prompts::render(std::slice::from_ref(&r)).as_bytes())
                    .map_err(anyhow::Error::from),
                (None, None) => Ok(()),
            };
        }
        if r.errors() == 0 && r.case_names.is_empty() {
            r.diagnostics = Vec::new();
            without_cases.push(r);
        }
    })?;
    result?;
    let unused = unused_allowances(config.as_ref(), false);
    streamed(text, &[], &unused, Mode::Test, false, &mut out)?;
    out.finish()?;
    super::hints::no_cases(&without_cases, false);
    if let Some(mut f) = spool {
        f.rewind()?;
        let mut err = std::io::stderr().lock();
        std::io::copy(&mut f, &mut err)?;
        err.flush()?;
    }
    Ok(if failed { EXIT_FINDINGS } else { EXIT_OK })
}

/// The allowances that matched nothing; none when the run did not cover every pack the file
/// could concern (`--case`).
fn unused_allowances(
    config: Option<&crate::allow::Config>,
    partial: bool,
) -> Vec<crate::core::Diagnostic> {
    match config {
        Some(c) if !partial => c.unused(),
        _ => Vec::new(),
    }
}

/// Every output path of the command, checked before any work.
fn validate_outputs(
    out: &OutputArgs,
    junit: Option<&Path>,
    prompts_dir: Option<&Path>,
) -> Result<(), String> {
    let mut outputs = Vec::new();
    if let Some(p) = &out.output_file {
        outputs.push(Output {
            flag: "--output-file",
            path: p,
            folder: false,
        });
    }
    if let Some(p) = &out.sarif {
        outputs.push(Output {
            flag: "--sarif",
            path: p,
            folder: false,
        });
    }
    if let Some(p) = junit {
        outputs.push(Output {
            flag: "--junit",
            path: p,
            folder: false,
        });
    }
    if let Some(p) = prompts_dir {
        outputs.push(Output {
            flag: "--prompts-dir",
            path: p,
            folder: true,
        });
    }
    paths::validate(&outputs)
}

/// 1 when any pack fails, else 0.
pub(crate) fn verdict(reports: &[PackReport], deny_warnings: bool) -> i32 {
    if reports.iter().any(|r| r.failed(deny_warnings)) {
        EXIT_FINDINGS
    } else {
        EXIT_OK
    }
}

/// Whether `--format full` paints: `--color`, then NO_COLOR / CLICOLOR_FORCE / a terminal, as
/// anstream decides them for standard output.
fn paints(when: ColorWhen) -> bool {
    match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => {
            anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never
        }
    }
}

/// A pack file's text for `--format full`'s snippets, read again from the pack folder (files
/// over 1 MiB, or not UTF-8, are shown without a snippet).
fn read_source(r: &PackReport, file: &str) -> Option<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(Path::new(&r.dir).join(file))
        .ok()?
        .take(1 << 20)
        .read_to_end(&mut bytes)
        .ok()?;
    String::from_utf8(bytes).ok()
}

/// The report in `--format`'s renderer to the sink; `--sarif` and `--junit` files beside it.
fn emit(
    reports: &[PackReport],
    view: View,
    out: &OutputArgs,
    junit: Option<&Path>,
    unused: &[crate::core::Diagnostic],
    sink: &mut Sink,
) -> anyhow::Result<()> {
    let run = Rendering {
        unused,
        category: &out.category,
        quiet: view.quiet,
        sources: &read_source,
        ..Rendering::new(reports, view.mode)
    };
    if let Some(path) = &out.sarif {
        write_file(path, &SarifRenderer { limit: MAX_RESULTS }, &run)?;
    }
    if let Some(path) = junit {
        write_file(path, &JunitRenderer, &run)?;
    }
    let renderer = out.format.renderer(out.verbose);
    let styled = sink.is_stdout() && paints(out.color) || out.color == ColorWhen::Always;
    if out.format == Format::Full && !styled {
        let sink: &mut dyn std::io::Write = sink;
        renderer.render(&run, &mut anstream::StripStream::new(sink))?;
    } else {
        renderer.render(&run, sink)?;
    }
    Ok(())
}

/// A file beside the report (`--sarif`, `--junit`), written once whole, never through a link.
fn write_file(path: &Path, renderer: &dyn Render, run: &Rendering<'_>) -> anyhow::Result<()> {
    let mut bytes = Vec::new();
    renderer.render(run, &mut bytes)?;
    crate::system::safe_write::write_atomic(path, &bytes)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

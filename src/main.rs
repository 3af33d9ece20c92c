//! `hippo-packs`: exits 0 clean, 1 findings, 2 usage, 3 internal error; no panic reaches the user.

fn main() -> std::process::ExitCode {
    std::panic::set_hook(Box::new(|info| {
        let msg = info.to_string().replace('\n', " ");
        eprintln!(
            "hippo-packs: internal error: {}",
            hippo_packs::core::escape::line(&msg)
        );
    }));
    let code =
        std::panic::catch_unwind(hippo_packs::cli::run).unwrap_or(hippo_packs::cli::EXIT_INTERNAL);
    std::process::ExitCode::from(code as u8)
}

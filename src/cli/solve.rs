use std::io::Read;
use std::process::ExitCode;
use tomek::board::Board;
use tomek::rules::Geometry;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The Code Jam input; `-` or absent for standard input.
    pub input: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut text = String::new();
    match &args.input {
        Some(p) if p.as_os_str() != "-" => text = std::fs::read_to_string(p)?,
        _ => {
            std::io::stdin().read_to_string(&mut text)?;
        }
    }
    let mut lines = text.lines().map(str::trim_end).filter(|l| !l.is_empty());
    let n: usize = lines.next().unwrap_or("0").parse()?;
    for case in 1..=n {
        let rows: String = (0..4).filter_map(|_| lines.next()).collect();
        let b = Board::from_symbols(rows.as_bytes())
            .map_err(|e| anyhow::anyhow!("case {case}: bad symbol {e:?}"))?;
        println!("Case #{case}: {}", Geometry::tomek().status(b));
    }
    Ok(ExitCode::SUCCESS)
}

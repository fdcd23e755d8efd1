//! SVG plots of the counts by ply, drawn with plotters' SVG backend: text goes out as SVG
//! `<text>` elements laid out by an estimate, so no font or system library is needed, and the
//! same numbers always give the same bytes.
//!
//! Each series has a colour of its own across a figure, and bars are drawn for every ply (an
//! empty one with no height), so a reader of the SVG finds a series by the colour its legend
//! shows.

use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;
use tomek::fourow::count::Ply;
use tomek::outcome::Status;
use tomek::output::grouped;
use tomek::tictactoe::stats::Stats;

/// Colours of the statuses (X won, O won, draw, open), in [`Status::ALL`] order.
pub const STATUS_COLORS: [RGBColor; 4] = [
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0x7f, 0x7f, 0x7f),
    RGBColor(0x98, 0xdf, 0x8a),
];

/// Colours of the values for the side to move: win, draw, loss.
pub const VALUE_COLORS: [RGBColor; 3] = [
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xbc, 0xbd, 0x22),
    RGBColor(0x94, 0x67, 0xbd),
];

const SIZE: (u32, u32) = (960, 900);

/// A named, coloured series of (ply, count) points.
type Series = (&'static str, RGBColor, Vec<(u32, u64)>);
const FONT: &str = "sans-serif";

fn status_name(s: Status) -> &'static str {
    match s {
        Status::XWon => "X won",
        Status::OWon => "O won",
        Status::Draw => "draw",
        Status::Open => "open",
    }
}

/// Writes an SVG to `path` atomically.
pub fn write(path: &Path, svg: &str) -> anyhow::Result<()> {
    tomek::output::write_atomic(path, svg.as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

/// Turns a plotters error into one that names the plot.
fn drawing<E: std::fmt::Debug>(what: &str) -> impl FnOnce(E) -> anyhow::Error + '_ {
    move |e| anyhow::anyhow!("cannot draw {what}: {e:?}")
}

/// Stacked bars, one per ply, with a legend: `series[k][ply]` is the height of series `k`.
fn stacked_bars(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    caption: &str,
    y_desc: &str,
    series: &[(&str, RGBColor, Vec<f64>)],
    y_max: f64,
    y_label: &dyn Fn(&f64) -> String,
) -> anyhow::Result<()> {
    let plies = series.first().map_or(0, |s| s.2.len());
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 18))
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(100)
        .build_cartesian_2d(-0.5f64..plies as f64 - 0.5, 0f64..y_max)
        .map_err(drawing(caption))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(plies)
        .x_label_formatter(&|x| format!("{}", x.round() as i64))
        .y_label_formatter(y_label)
        .x_desc("ply (stones placed)")
        .y_desc(y_desc)
        .label_style((FONT, 13))
        .draw()
        .map_err(drawing(caption))?;
    let mut base = vec![0f64; plies];
    for (name, color, values) in series {
        let color = *color;
        let bars: Vec<Rectangle<(f64, f64)>> = values
            .iter()
            .enumerate()
            .map(|(ply, &v)| {
                let x = ply as f64;
                let r = Rectangle::new(
                    [(x - 0.38, base[ply]), (x + 0.38, base[ply] + v)],
                    color.filled(),
                );
                base[ply] += v;
                r
            })
            .collect();
        chart
            .draw_series(bars)
            .map_err(drawing(caption))?
            .label(*name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 12, y + 6)], color.filled()));
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font((FONT, 13))
        .draw()
        .map_err(drawing(caption))?;
    Ok(())
}

/// The statistics figure: reachable boards per ply stacked by status, and the share of those
/// boards won, drawn and lost for the side to move under perfect play.
pub fn stats_svg(stats: &Stats, setups: &str) -> anyhow::Result<String> {
    let wdl = stats.total.side_to_move_by_ply.as_ref().ok_or_else(|| {
        anyhow::anyhow!("--plot needs the values part (drop --only, or add values)")
    })?;
    let plies = stats.total.boards_by_ply.len();
    let boards: Vec<(&str, RGBColor, Vec<f64>)> = Status::ALL
        .iter()
        .map(|&s| {
            let values = stats
                .total
                .boards_by_ply
                .iter()
                .map(|b| b[s] as f64)
                .collect();
            (status_name(s), STATUS_COLORS[s.index()], values)
        })
        .collect();
    let top = stats
        .total
        .boards_by_ply
        .iter()
        .map(|b| b.total())
        .max()
        .unwrap_or(1) as f64;
    let share = |f: fn(&tomek::tictactoe::stats::WinDrawLoss) -> u64| -> Vec<f64> {
        wdl.iter()
            .map(|w| {
                let all = w.win + w.draw + w.loss;
                if all == 0 {
                    0.0
                } else {
                    100.0 * f(w) as f64 / all as f64
                }
            })
            .collect()
    };
    let values = vec![
        (
            "win for the side to move",
            VALUE_COLORS[0],
            share(|w| w.win),
        ),
        ("draw", VALUE_COLORS[1], share(|w| w.draw)),
        (
            "loss for the side to move",
            VALUE_COLORS[2],
            share(|w| w.loss),
        ),
    ];
    debug_assert_eq!(values[0].2.len(), plies);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(drawing("the background"))?;
        let title = format!(
            "Tic-Tac-Toe-Tomek ({}×{}, {} in a row), {setups}: reachable boards by ply",
            stats.rows, stats.cols, stats.line
        );
        let root = root
            .titled(&title, (FONT, 22))
            .map_err(drawing("the title"))?;
        let (upper, lower) = root.split_vertically(SIZE.1 / 2 - 20);
        stacked_bars(
            &upper,
            "Reachable boards, stacked by status",
            "reachable boards",
            &boards,
            top * 1.05,
            &|v| grouped(v.round().max(0.0) as u128),
        )?;
        stacked_bars(
            &lower,
            "Perfect play: share of the ply's boards won, drawn, lost by the side to move",
            "share of the ply's boards (%)",
            &values,
            // Room above the bars for the legend.
            125.0,
            &|v| {
                if *v <= 100.0 {
                    format!("{v:.0}%")
                } else {
                    String::new()
                }
            },
        )?;
        root.present().map_err(drawing("the figure"))?;
    }
    Ok(svg)
}

/// The Four in a row figure: distinct positions per ply on a log scale, with the positions won
/// by each player (plies with none are left out of a series, as a log scale has no zero).
pub fn fourow_svg(plies: &[Ply]) -> anyhow::Result<String> {
    let last = plies.last().map_or(0, |p| p.ply);
    let top = plies
        .iter()
        .map(|p| p.positions())
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    let series: [Series; 3] = [
        (
            "all positions",
            RGBColor(0x1f, 0x77, 0xb4),
            plies.iter().map(|p| (p.ply, p.positions())).collect(),
        ),
        (
            "won by the first player",
            STATUS_COLORS[0],
            plies.iter().map(|p| (p.ply, p.x_won)).collect(),
        ),
        (
            "won by the second player",
            RGBColor(0xff, 0x7f, 0x0e),
            plies.iter().map(|p| (p.ply, p.o_won)).collect(),
        ),
    ];
    let title = format!(
        "Four in a row (7 columns, 6 rows): distinct positions after each ply, 0 to {last}"
    );
    ply_chart(&title, last, top, series)
}

/// The strong solution of a board: the positions of each ply, and those won, drawn and lost
/// for the side to move, on a log scale.
pub fn fourow_values_svg(
    cols: u32,
    rows: u32,
    plies: &[tomek::fourow::bdd::values::Values],
) -> anyhow::Result<String> {
    let last = plies.last().map_or(0, |p| p.ply);
    let top = plies.iter().map(|p| p.positions).max().unwrap_or(1).max(1) as f64;
    let series: [Series; 4] = [
        (
            "all positions",
            RGBColor(0x1f, 0x77, 0xb4),
            plies.iter().map(|p| (p.ply, p.positions)).collect(),
        ),
        (
            "won for the side to move",
            VALUE_COLORS[0],
            plies.iter().map(|p| (p.ply, p.won)).collect(),
        ),
        (
            "drawn",
            VALUE_COLORS[1],
            plies.iter().map(|p| (p.ply, p.drawn)).collect(),
        ),
        (
            "lost for the side to move",
            VALUE_COLORS[2],
            plies.iter().map(|p| (p.ply, p.lost)).collect(),
        ),
    ];
    let title = format!(
        "Four in a row ({cols} columns, {rows} rows): positions after each ply by their value, \
         0 to {last}"
    );
    ply_chart(&title, last, top, series)
}

/// Lines with dots, one per series, over the plies 0 to `last`, on a log scale up to `top`.
fn ply_chart<const N: usize>(
    title: &str,
    last: u32,
    top: f64,
    series: [Series; N],
) -> anyhow::Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (SIZE.0, SIZE.1 / 2 + 80)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing("the background"))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, 20))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(110)
            .build_cartesian_2d(-0.5f64..last as f64 + 0.5, (1f64..top * 2.0).log_scale())
            .map_err(drawing("the Four in a row plot"))?;
        chart
            .configure_mesh()
            .x_labels(last as usize + 2)
            .x_label_formatter(&|x| format!("{}", x.round() as i64))
            .y_label_formatter(&|v| grouped(v.round().max(0.0) as u128))
            .x_desc("ply (discs dropped)")
            .y_desc("positions (log scale)")
            .label_style((FONT, 13))
            .draw()
            .map_err(drawing("the Four in a row plot"))?;
        for (name, color, points) in series {
            let points: Vec<(f64, f64)> = points
                .into_iter()
                .filter(|&(_, n)| n > 0)
                .map(|(p, n)| (p as f64, n as f64))
                .collect();
            if points.is_empty() {
                continue;
            }
            chart
                .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
                .map_err(drawing(name))?
                .label(name)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 16, y)], color.stroke_width(2))
                });
            chart
                .draw_series(
                    points
                        .into_iter()
                        .map(|p| Circle::new(p, 3, color.filled())),
                )
                .map_err(drawing(name))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .label_font((FONT, 13))
            .draw()
            .map_err(drawing("the legend"))?;
        root.present().map_err(drawing("the figure"))?;
    }
    Ok(svg)
}

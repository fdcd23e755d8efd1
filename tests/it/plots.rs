//! The SVG plots of `tomek stats --plot` and `tomek fourow count --plot`, read back as XML: the
//! title and axes are there, every series named in the legend is drawn, and the drawn sizes
//! hold the numbers the commands count (bar heights proportional to the counts, points of the
//! log-scale lines on a straight log scale).

use crate::harness::*;
use std::collections::HashMap;
use tomek::outcome::Status;
use tomek::tictactoe::rules::Geometry;
use tomek::tictactoe::stats::{self, Sections};

/// The texts of an SVG, trimmed.
fn texts(doc: &roxmltree::Document) -> Vec<String> {
    doc.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter_map(|n| n.text())
        .map(|t| t.trim().to_string())
        .collect()
}

/// Filled rectangles by fill colour, in document order: (y, height).
fn rects(doc: &roxmltree::Document) -> HashMap<String, Vec<(f64, f64)>> {
    let mut out: HashMap<String, Vec<(f64, f64)>> = HashMap::new();
    for n in doc.descendants().filter(|n| n.has_tag_name("rect")) {
        let num = |a: &str| n.attribute(a).unwrap().parse::<f64>().unwrap();
        out.entry(n.attribute("fill").unwrap().to_string())
            .or_default()
            .push((num("y"), num("height")));
    }
    out
}

/// Each drawn height is the value times one scale, to the pixel.
fn assert_proportional(name: &str, heights: &[f64], values: &[f64], scale: f64) {
    assert_eq!(heights.len(), values.len(), "{name}");
    for (ply, (h, v)) in heights.iter().zip(values).enumerate() {
        assert!(
            (h - v * scale).abs() <= 1.5,
            "{name}, ply {ply}: drawn {h} px for {v} (expected {} px)",
            v * scale
        );
    }
}

#[test]
fn stats_plot_holds_the_counts_and_values() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("stats.svg");
    let out = tomek()
        .args(["--quiet", "stats", "--setup", "none", "--plot"])
        .arg(&svg)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let words = texts(&doc);
    for needed in [
        "Tic-Tac-Toe-Tomek (4×4, 4 in a row), setup none: reachable boards by ply",
        "ply (stones placed)",
        "reachable boards",
        "share of the ply's boards (%)",
        "X won",
        "O won",
        "draw",
        "open",
        "win for the side to move",
        "loss for the side to move",
    ] {
        assert!(words.iter().any(|w| w == needed), "no text {needed:?}");
    }
    let g = Geometry::tomek();
    let s = stats::analyze(g, &[0], Sections::ALL);
    let by_ply = &s.total.boards_by_ply;
    let rects = rects(&doc);
    let color = |c: &plotters::style::RGBColor| format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2);
    // The tallest stack gives the scale; every bar of every status must fit it.
    let statuses: Vec<(Status, Vec<f64>)> = Status::ALL
        .iter()
        .map(|&st| {
            let bars = &rects[&color(&STATUS[st.index()])];
            // 17 bars, then the legend's swatch.
            assert_eq!(bars.len(), 18, "{st:?}");
            (st, bars[..17].iter().map(|b| b.1).collect())
        })
        .collect();
    let (top_ply, top) = by_ply
        .iter()
        .enumerate()
        .max_by_key(|(_, b)| b.total())
        .map(|(i, b)| (i, b.total()))
        .unwrap();
    let drawn_top: f64 = statuses.iter().map(|(_, h)| h[top_ply]).sum();
    let scale = drawn_top / top as f64;
    for (st, heights) in &statuses {
        let values: Vec<f64> = by_ply.iter().map(|b| b[*st] as f64).collect();
        assert_proportional(&format!("{st:?}"), heights, &values, scale);
    }
    // The values panel: each ply's bars fill the same height, split as the shares.
    let wdl = s.total.side_to_move_by_ply.as_ref().unwrap();
    let parts: Vec<Vec<f64>> = VALUE
        .iter()
        .map(|c| {
            let bars = &rects[&color(c)];
            assert_eq!(bars.len(), 18);
            bars[..17].iter().map(|b| b.1).collect()
        })
        .collect();
    let full = parts[0][0] + parts[1][0] + parts[2][0];
    for (k, heights) in parts.iter().enumerate() {
        let values: Vec<f64> = wdl
            .iter()
            .map(|w| [w.win, w.draw, w.loss][k] as f64 / (w.win + w.draw + w.loss) as f64)
            .collect();
        assert_proportional(&format!("value {k}"), heights, &values, full);
    }
}

/// The colours the plots give the series (the legend shows the same).
const STATUS: [plotters::style::RGBColor; 4] = [
    plotters::style::RGBColor(0xd6, 0x27, 0x28),
    plotters::style::RGBColor(0x1f, 0x77, 0xb4),
    plotters::style::RGBColor(0x7f, 0x7f, 0x7f),
    plotters::style::RGBColor(0x98, 0xdf, 0x8a),
];
const VALUE: [plotters::style::RGBColor; 3] = [
    plotters::style::RGBColor(0x2c, 0xa0, 0x2c),
    plotters::style::RGBColor(0xbc, 0xbd, 0x22),
    plotters::style::RGBColor(0x94, 0x67, 0xbd),
];

#[test]
fn fourow_plot_holds_the_counts_on_a_log_scale() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("count.svg");
    let out = tomek()
        .args([
            "--quiet", "fourow", "count", "--plies", "10", "--format", "json",
        ])
        .arg("--plot")
        .arg(&svg)
        .output()
        .unwrap();
    assert!(out.status.success());
    let counts: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let plies = counts["plies"].as_array().unwrap();
    let text = std::fs::read_to_string(&svg).unwrap();
    let doc = roxmltree::Document::parse(&text).unwrap();
    let words = texts(&doc);
    for needed in [
        "Four in a row (7 columns, 6 rows): distinct positions after each ply, 0 to 10",
        "ply (discs dropped)",
        "positions (log scale)",
        "all positions",
        "won by the first player",
        "won by the second player",
    ] {
        assert!(words.iter().any(|w| w == needed), "no text {needed:?}");
    }
    // Polylines by stroke colour; the longest of a colour is the series (the legend's is a
    // two-point stroke).
    let mut lines: HashMap<String, Vec<(f64, f64)>> = HashMap::new();
    for n in doc.descendants().filter(|n| n.has_tag_name("polyline")) {
        let points: Vec<(f64, f64)> = n
            .attribute("points")
            .unwrap()
            .split_whitespace()
            .map(|p| {
                let (x, y) = p.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        let e = lines
            .entry(n.attribute("stroke").unwrap().to_string())
            .or_default();
        if points.len() > e.len() {
            *e = points;
        }
    }
    let series = [
        ("#1F77B4", "positions"),
        ("#D62728", "first_player_won"),
        ("#FF7F0E", "second_player_won"),
    ];
    // One log scale for all: fit it on the positions' first and last points.
    let all = &lines["#1F77B4"];
    let value = |ply: usize, field: &str| plies[ply][field].as_u64().unwrap() as f64;
    let (x0, y0) = all[0];
    let (x1, y1) = all[all.len() - 1];
    let last = plies.len() - 1;
    let per_decade = (y0 - y1) / (value(last, "positions").log10() - value(0, "positions").log10());
    let per_ply = (x1 - x0) / last as f64;
    for (stroke, field) in series {
        let drawn = &lines[stroke];
        let expected: Vec<(usize, f64)> = (0..plies.len())
            .map(|p| (p, value(p, field)))
            .filter(|&(_, v)| v > 0.0)
            .collect();
        assert_eq!(drawn.len(), expected.len(), "{field}");
        for (&(x, y), &(ply, v)) in drawn.iter().zip(&expected) {
            assert!(
                (x - (x0 + ply as f64 * per_ply)).abs() <= 1.5,
                "{field} ply {ply}"
            );
            let want = y0 - (v.log10() - value(0, "positions").log10()) * per_decade;
            assert!(
                (y - want).abs() <= 1.5,
                "{field} ply {ply}: drawn at {y}, {v} belongs at {want}"
            );
        }
    }
}

#[test]
fn plot_needs_the_values() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("s.svg");
    let out = tomek()
        .args(["stats", "--only", "counts", "--plot"])
        .arg(&svg)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--only must include values"));
    assert!(!svg.exists());
}

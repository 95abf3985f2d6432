//! The evaluation chart of a game review: White's expected score after each ply as a line over a
//! band from 0 (Black wins) to 1 (White wins), the judged faults as dots on it. No text, so it
//! needs no font; the SVG is `width` by half of it, and the PNG is that SVG rasterised.

use std::fmt::Write as _;

/// One point of the chart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartPoint {
    /// White's expected score after the ply, 0 to 1.
    pub white_expected: f64,
    /// How the move that led here is marked.
    pub mark: ChartMark,
}

/// How a ply is marked on the chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartMark {
    /// Not at all.
    None,
    /// An inaccuracy: a yellow dot.
    Inaccuracy,
    /// A mistake: an orange dot.
    Mistake,
    /// A blunder: a red dot.
    Blunder,
}

/// `viewBox` units across; the height is half of it.
const WIDTH: f64 = 1000.0;
const HEIGHT: f64 = 500.0;
/// The margin around the plot.
const MARGIN: f64 = 20.0;

const BACKGROUND: &str = "#f7f4ee";
const WHITE_AREA: &str = "#ffffff";
const BLACK_AREA: &str = "#3a3a3a";
const MIDLINE: &str = "#9e9e9e";
const LINE_COLOR: &str = "#1e6fd9";

/// The chart of `start` (White's expected score before the first move) and `points`, as an SVG
/// document of `width` pixels by half of it.
#[must_use]
pub fn document(start: f64, points: &[ChartPoint], width: u32) -> String {
    let plot_width = WIDTH - 2.0 * MARGIN;
    let plot_height = HEIGHT - 2.0 * MARGIN;
    let step = plot_width / points.len().max(1) as f64;
    let at = |index: usize, expected: f64| {
        let x = MARGIN + index as f64 * step;
        let y = MARGIN + (1.0 - expected.clamp(0.0, 1.0)) * plot_height;
        (x, y)
    };
    let mut svg = String::new();
    let height = width / 2;
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {WIDTH} {HEIGHT}">"#
    );
    let _ = write!(svg, r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="{BACKGROUND}"/>"#);
    let _ = write!(
        svg,
        r#"<rect class="black-area" x="{MARGIN}" y="{MARGIN}" width="{plot_width}" height="{plot_height}" fill="{BLACK_AREA}"/>"#
    );
    // White's share: the area under the line, down to the bottom of the plot.
    let mut area = format!("M{MARGIN} {}", MARGIN + plot_height);
    let line: Vec<(f64, f64)> = std::iter::once(at(0, start))
        .chain(points.iter().enumerate().map(|(index, point)| at(index + 1, point.white_expected)))
        .collect();
    for (x, y) in &line {
        let _ = write!(area, " L{x:.1} {y:.1}");
    }
    let (last_x, _) = line.last().copied().unwrap_or((MARGIN, 0.0));
    let _ = write!(area, " L{last_x:.1} {} Z", MARGIN + plot_height);
    let _ = write!(svg, r#"<path class="white-area" d="{area}" fill="{WHITE_AREA}"/>"#);
    let middle = MARGIN + plot_height / 2.0;
    let _ = write!(
        svg,
        r#"<line x1="{MARGIN}" y1="{middle}" x2="{}" y2="{middle}" stroke="{MIDLINE}" stroke-width="2" stroke-dasharray="8 6"/>"#,
        MARGIN + plot_width
    );
    let path: Vec<String> = line.iter().map(|(x, y)| format!("{x:.1} {y:.1}")).collect();
    let _ = write!(
        svg,
        r#"<polyline class="evaluation" points="{}" fill="none" stroke="{LINE_COLOR}" stroke-width="4" stroke-linejoin="round"/>"#,
        path.join(" ")
    );
    for (index, point) in points.iter().enumerate() {
        let (class, color) = match point.mark {
            ChartMark::None => continue,
            ChartMark::Inaccuracy => ("inaccuracy", "#f2c94c"),
            ChartMark::Mistake => ("mistake", "#f2994a"),
            ChartMark::Blunder => ("blunder", "#d93025"),
        };
        let (x, y) = at(index + 1, point.white_expected);
        let _ = write!(
            svg,
            r##"<circle class="{class}" data-ply="{index}" cx="{x:.1}" cy="{y:.1}" r="9" fill="{color}" stroke="#222222" stroke-width="2"/>"##
        );
    }
    svg.push_str("</svg>");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chart_marks_each_fault_at_its_ply() {
        let point = |white_expected, mark| ChartPoint { white_expected, mark };
        let svg = document(0.5, &[point(0.5, ChartMark::None), point(0.1, ChartMark::Blunder)], 640);
        assert!(svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="640" height="320""#));
        assert_eq!(svg.matches("<circle").count(), 1);
        assert!(svg.contains(r#"class="blunder" data-ply="1" cx="980.0" cy="434.0""#), "{svg}");
        assert!(svg.contains(r#"points="20.0 250.0 500.0 250.0 980.0 434.0""#), "{svg}");
    }
}

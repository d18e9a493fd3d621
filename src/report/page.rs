//! What every page of the reports shares: the common style sheet, and the file names and
//! anchors pages link to one another by. The lowest layer of the HTML pages (it imports none of
//! them), so a page links to another without importing it.

/// The file name of the page of game `id` (in `games/` of an analysis;
/// `crate::output::page_file_name`): `sim12-0000003.html`, and a hash of the id after the
/// kept characters when the id has others (`game1_txt_12-1f5e7349.html` for `game1.txt:12`).
pub fn game_file_name(id: &str) -> String {
    crate::output::page_file_name(id)
}

/// The anchor of the decision at index `order` of a game's decisions (as
/// [`crate::rows::DecisionRow::order`]) on the game's page: `d1` for the first.
pub fn decision_anchor(order: usize) -> String {
    format!("d{}", order + 1)
}

/// The style sheet every page shares (inlined in its `<style>`; a page may add its own rules
/// after it).
pub const STYLE: &str = concat!(
    "\
:root { color-scheme: light; }
body { margin: 0; background: #f4f5f7; color: #1d2330;
  font: 15px/1.45 system-ui, -apple-system, \"Segoe UI\", \"DejaVu Sans\", \"Liberation Sans\", sans-serif; }
main { max-width: 1080px; margin: 0 auto; padding: 24px 28px 40px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 0 0 8px; }
header p { margin: 2px 0; color: #4a5263; }
section { background: #fff; border: 1px solid #dde1e7; border-radius: 8px; padding: 16px 20px;
  margin: 18px 0; }
.note { color: #4a5263; font-size: 13.5px; margin: 6px 0; }
.empty { background: #fff6e0; border: 1px solid #e8cf8a; border-radius: 8px; padding: 12px 16px;
  font-weight: 600; }
dl.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(190px, 1fr));
  gap: 8px 18px; margin: 8px 0 14px; }
dl.facts div { border-left: 3px solid #1f6fb4; padding-left: 10px; }
dl.facts dt { font-size: 12.5px; color: #5b6475; }
dl.facts dd { margin: 0; font-size: 18px; font-weight: 600; font-variant-numeric: tabular-nums; }
table { border-collapse: collapse; width: 100%; font-size: 14px; margin: 8px 0; }
caption { text-align: left; font-weight: 600; padding: 4px 0; }
th, td { padding: 4px 10px; border-bottom: 1px solid #e6e9ee; text-align: left; }
th { background: #eef1f5; font-weight: 600; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tbody tr:nth-child(even) { background: #f9fafb; }
tr.best td { background: #fdeceb; }
.unit-title { font-size: 22px; margin: 34px 0 0; padding: 6px 0 6px 12px;
  border-left: 6px solid #1f6fb4; }
.unit-title small { display: block; font-size: 14px; font-weight: 400; color: #4a5263; }
ul.legend { list-style: none; display: flex; flex-wrap: wrap; gap: 6px 22px; padding: 0;
  margin: 6px 0; font-size: 13.5px; }
ul.legend li { display: flex; align-items: center; gap: 6px; }
.swatch { display: inline-block; width: 14px; height: 14px; border-radius: 3px; }
.board-wrap { max-height: 640px; overflow: auto; border: 1px solid #e6e9ee; }
.board-wrap table { margin: 0; }
.board-wrap thead th { position: sticky; top: 0; }
th.sortable { cursor: pointer; user-select: none; }
table.board th, table.kinds th { white-space: normal; vertical-align: bottom; }
table.kinds td:first-child { white-space: nowrap; }
th.sortable::after { content: \" \\2195\"; color: #98a0ae; font-size: 11px; }
th[aria-sort=ascending]::after { content: \" \\25B2\"; color: #1d2330; }
th[aria-sort=descending]::after { content: \" \\25BC\"; color: #1d2330; }
td a { color: #1f5fa0; }
",
    chart_style!(),
    "\
footer { color: #6b7385; font-size: 13px; margin-top: 12px; }
"
);

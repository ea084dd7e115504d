"""The app's two static style sheets (never user text), drawn by ui/shell.py on every page: BASE_CSS always,
PRESENTATION_CSS in presentation mode (a projector at the back of a room)."""

# Static CSS (never user text): larger type for a projector at the back of a room.
PRESENTATION_CSS = """<style>
html { font-size: 18px; }
/* The figure on the projector's first screen (issue 39): a smaller title and less space above it; the prompt and
   its tokens large, as the figure is (figure_scale). */
[data-testid="stMainBlockContainer"] { padding-top: 3.25rem; }
/* The title stays above the section headings (h2), and a Chinese title's tops are not cut. */
[data-testid="stMain"] h1 { font-size: 2rem; line-height: 1.35; padding-top: 0.25rem; }
[data-testid="stMain"] [data-testid="stTextInput"] input { font-size: 1.35rem; }
[data-testid="stMain"] [data-testid="stCaptionContainer"] code { font-size: 1.15rem; }
/* The page's text, not the sidebar's: there the longer page names were cut off. */
[data-testid="stMain"] [data-testid="stMarkdownContainer"] :is(p, li) { font-size: 1.15rem; }
/* Side-by-side figures stack: each gets the full width, so its cells and labels grow with the larger fonts
   instead of shrinking to fit half a screen. Rows of controls stay rows: stacked, they pushed the Explorer's
   figure from 481 to 1,170 px on a 1366x768 projector, below the first screen (issue 39). */
[data-testid="stHorizontalBlock"]:has(.js-plotly-plot) { flex-direction: column; }
[data-testid="stHorizontalBlock"]:has(.js-plotly-plot) > [data-testid="stColumn"] {
  width: 100% !important; flex: 1 1 100% !important; }
/* ... but the Explorer's two models stay side by side (issue 44): stacked, their heatmaps were a screen apart. A phone
   still stacks them (Streamlit's own rule below 640 px). */
@media (min-width: 641px) {
  .st-key-cmp_cols [data-testid="stHorizontalBlock"]:has(.js-plotly-plot) { flex-direction: row; }
  .st-key-cmp_cols [data-testid="stHorizontalBlock"]:has(.js-plotly-plot) > [data-testid="stColumn"] {
    width: calc(50% - 0.5rem) !important; flex: 1 1 0 !important; }
}
</style>"""


# Static CSS (never user text): a formula wider than a phone scrolls sideways instead of being cut off.
BASE_CSS = """<style>
.katex-display { overflow-x: auto; overflow-y: hidden; padding: 0.2rem 0; }
/* Less empty space above the page title (Streamlit's 6rem) and a smaller title: on a 1366x768
   projector a page's first figure starts 60 px higher. */
[data-testid="stMainBlockContainer"] { padding-top: 3.5rem; }
[data-testid="stMain"] h1 { font-size: 2.25rem; padding-top: 0.5rem; }
/* A prompt box's character counter ("55/10000") sits at its right end: the typed text stops before it. */
[data-testid="stMain"] [data-testid="stTextInput"] input { padding-right: 4.5rem; }
/* On a phone the display formulas fit the width (KaTeX draws them at 1.21em). */
@media (max-width: 500px) { .katex-display > .katex { font-size: 0.95em; } }
/* On a phone a figure's title (one SVG line: Plotly never wraps it) is drawn smaller, so that it fits. */
@media (max-width: 500px) { .js-plotly-plot .gtitle { font-size: 11px !important; } }
/* On a phone the prompt box takes the whole width, its Examples and "What it knows" buttons go under it. */
@media (max-width: 500px) {
  [data-testid="stMain"] [data-testid="stHorizontalBlock"]:has(> [data-testid="stElementContainer"] input) {
    flex-wrap: wrap; }
  [data-testid="stMain"] [data-testid="stHorizontalBlock"] > [data-testid="stElementContainer"]:has(input) {
    flex: 1 1 100%; width: 100%; } }
/* A toggle's long label wraps instead of ending in "…" on a phone (the Explorer's neuron-view switch). */
[data-testid="stMain"] [data-testid="stCheckbox"] label :is(p, div) {
  white-space: normal; overflow: visible; text-overflow: clip; }
/* A long page name wraps in the sidebar instead of being cut ("Translate (encoder-decoder"). */
[data-testid="stSidebar"] [data-testid="stPageLink-NavLink"] :is(span, p) {
  white-space: normal; overflow: visible; text-overflow: clip; }
</style>"""

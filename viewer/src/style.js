// The page's style sheet: the view fills the left, the plots scroll on the right.
export const STYLE = `
html, body { margin: 0; height: 100%; font: 13px sans-serif; color: #202124; background: #fff; }
#pegsim-root { display: flex; height: 100vh; }
#pegsim-main { flex: 1; display: flex; flex-direction: column; min-width: 0; }
#pegsim-view { flex: 1; min-height: 0; position: relative; overflow: hidden; }
#pegsim-view canvas { display: block; position: absolute; left: 0; top: 0; }
#pegsim-controls { display: flex; align-items: center; gap: 6px; padding: 6px; border-top: 1px solid #dadce0; flex-wrap: wrap; }
#pegsim-controls button { min-width: 32px; }
.pegsim-slider { flex: 1; min-width: 160px; }
.pegsim-status { font-family: monospace; white-space: pre; }
#pegsim-side { width: 360px; border-left: 1px solid #dadce0; display: flex; flex-direction: column; }
#pegsim-info { padding: 6px; font-size: 12px; color: #5f6368; border-bottom: 1px solid #dadce0; word-break: break-all; }
#pegsim-plots { flex: 1; overflow-y: auto; padding: 6px; }
.pegsim-plot { position: relative; height: 92px; margin-bottom: 4px; cursor: crosshair; }
.pegsim-plot canvas { position: absolute; left: 0; top: 0; }
#pegsim-error { margin: 2em; padding: 1em; border: 2px solid #d93025; color: #a50e0e; background: #fce8e6; font-size: 15px; white-space: pre-wrap; }
`;

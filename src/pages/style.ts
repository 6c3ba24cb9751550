/**
 * The pages' one stylesheet, written to `assets/site.css` (a file, so every page shares one
 * cached copy and the CSP needs no inline styles). Colours are custom properties with a dark
 * set under `prefers-color-scheme: dark` (Media Queries Level 5); every text colour pair keeps a
 * WCAG 2.2 AA contrast of at least 4.5:1 in both sets, which the axe-core tests check.
 */

/** Where the stylesheet goes, relative to the tree. */
export const STYLESHEET_PATH = 'assets/site.css';

/** The stylesheet. */
export const STYLESHEET = `:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--card:#f6f8fa;--link:#0b57d0;
--accent:#0b57d0;--accent-fg:#fff;--code:#f3f4f6;--ok:#116329;--ok-bg:#dafbe1;--bad:#a40e26;--bad-bg:#ffebe9;--star:#6b4b00;--star-bg:#fff1c2;
--note:#0a4a8a;--note-bg:#ddf4ff;--focus:#bf3989}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9da7b3;--line:#3d444d;--card:#161b22;--link:#79b8ff;
--accent:#1a5fd0;--accent-fg:#fff;--code:#1c2128;--ok:#7ee2a8;--ok-bg:#0f2e1c;--bad:#ffa198;--bad-bg:#3c1618;--star:#f2cc60;--star-bg:#3a2d00;
--note:#9ecbff;--note-bg:#0c2d4f;--focus:#ff7bbf}}
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
a{color:var(--link)}a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-100vw}.skip:focus{left:1rem;top:.5rem;background:var(--bg);padding:.4rem .8rem;z-index:10}
.vh{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap}
header.site{border-bottom:1px solid var(--line);background:var(--card)}
header.site .bar{max-width:72rem;margin:0 auto;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;align-items:center}
header.site .brand{font-weight:700;color:var(--fg);text-decoration:none;font-size:1.1rem}
header.site nav ul{display:flex;flex-wrap:wrap;gap:.2rem 1rem;list-style:none;margin:0;padding:0}
main{max-width:72rem;margin:0 auto;padding:1rem 1rem 3rem}
footer.site{max-width:72rem;margin:0 auto;padding:1.5rem 1rem;border-top:1px solid var(--line);color:var(--muted);font-size:.9rem}
h1{font-size:1.9rem;line-height:1.2;margin:.6rem 0}h2{font-size:1.35rem;margin:2rem 0 .6rem}h3{font-size:1.1rem;margin:1.2rem 0 .4rem}
.lead{font-size:1.1rem;color:var(--muted);max-width:48rem}
code,pre,kbd{font:14px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
code{background:var(--code);padding:.05rem .3rem;border-radius:4px;overflow-wrap:break-word}
pre{background:var(--code);padding:.8rem;border-radius:6px;overflow:auto;max-height:32rem;margin:.4rem 0}pre code{background:none;padding:0}
table{border-collapse:collapse;width:100%}table.facts{width:auto;min-width:min(100%,36rem)}th,td{border-bottom:1px solid var(--line);padding:.4rem .5rem;text-align:left;vertical-align:top}
th{font-weight:600}.table-wrap{overflow-x:auto;margin:.4rem 0}
ul.plain{list-style:none;padding:0;margin:0}
.badge{display:inline-block;font-size:.8rem;font-weight:600;line-height:1.4;padding:.05rem .5rem;border-radius:999px;border:1px solid transparent;white-space:nowrap}
.badge.ok{color:var(--ok);background:var(--ok-bg)}.badge.bad{color:var(--bad);background:var(--bad-bg)}
.badge.star{color:var(--star);background:var(--star-bg)}.badge.plain{color:var(--muted);border-color:var(--line)}
.badge.note{color:var(--note);background:var(--note-bg)}
.tag{display:inline-block;font-size:.8rem;color:var(--muted);border:1px solid var(--line);border-radius:4px;padding:0 .35rem;margin:0 .25rem .25rem 0}
.muted{color:var(--muted)}.small{font-size:.9rem}
button,.button{font:inherit;font-size:.95rem;cursor:pointer;border:1px solid var(--line);background:var(--card);color:var(--fg);border-radius:6px;padding:.35rem .8rem;text-decoration:none;display:inline-block}
button.primary,.button.primary{background:var(--accent);border-color:var(--accent);color:var(--accent-fg);font-weight:600}
button:disabled{opacity:.6;cursor:progress}
input,select,textarea{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--muted);border-radius:6px;padding:.4rem .5rem;max-width:100%}
textarea{width:100%;min-height:5rem}
/* home */
.filters{display:grid;grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));gap:.6rem 1rem;align-items:end;margin:1rem 0;padding:.8rem;border:1px solid var(--line);border-radius:8px;background:var(--card)}
.filters label{display:block;font-size:.9rem;font-weight:600}.filters input,.filters select{width:100%;margin-top:.2rem}
.filters .search{grid-column:1/-1}.filters .search input{font-size:1.05rem;padding:.55rem .7rem}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(19rem,1fr));gap:1rem;list-style:none;padding:0;margin:1rem 0}
.card{border:1px solid var(--line);border-radius:8px;padding:.9rem 1rem;display:flex;flex-direction:column;gap:.45rem;background:var(--bg)}
.card h2{font-size:1.1rem;margin:0}.card h2 a{text-decoration:none}.card h2 a:hover{text-decoration:underline}
.card p{margin:0}.card .marks{display:flex;flex-wrap:wrap;gap:.3rem;align-items:center}
.card .agents{font-size:.85rem;color:var(--muted)}.card .counts{font-size:.85rem;color:var(--muted)}
.card.deprecated{border-style:dashed}
/* loadout */
.toc ul{display:flex;flex-wrap:wrap;gap:.2rem 1rem;list-style:none;padding:0;margin:.4rem 0}
.meta{display:flex;flex-wrap:wrap;gap:.3rem 1rem;color:var(--muted);font-size:.95rem;padding:0;list-style:none}
.install{border:1px solid var(--line);border-radius:8px;padding:0 1rem 1rem;margin:1rem 0}
[role=tablist]{display:flex;flex-wrap:wrap;gap:.2rem;border-bottom:1px solid var(--line);margin:0 -1rem 1rem;padding:.4rem 1rem 0}
[role=tab]{border:none;border-bottom:3px solid transparent;border-radius:0;background:none;padding:.5rem .7rem;margin-bottom:-1px}
[role=tab]:hover{border-bottom-color:var(--line)}[role=tab][aria-selected=true]{border-bottom-color:var(--accent);font-weight:700}
.command{display:flex;gap:.5rem;align-items:flex-start}.command pre{flex:1 1 auto;min-width:0;margin:0;white-space:pre;overflow-x:auto}
.targets{list-style:none;padding:0;margin:.6rem 0}.targets li{padding:.35rem 0;border-bottom:1px solid var(--line)}.targets li:last-child{border-bottom:none}
.targets .from{display:block;font-size:.9rem;color:var(--muted)}
.file{border:1px solid var(--line);border-radius:6px;margin:.5rem 0}.file>summary{padding:.5rem .7rem;cursor:pointer}
.file>div{padding:0 .7rem .7rem}.file .tools{display:flex;gap:.6rem;align-items:center;flex-wrap:wrap;margin:.3rem 0}
.runs{border:1px solid var(--line);border-radius:8px;padding:.1rem 1rem .6rem;margin:.6rem 0 1rem;background:var(--card)}
.runs ul,.asks{padding-left:1.2rem}.runs li,.asks li{overflow-wrap:anywhere;margin:.15rem 0}
.notice{color:var(--note)}.check-fail{color:var(--bad);font-weight:600}.check-pass{color:var(--ok);font-weight:600}
td ul{margin:.2rem 0;padding-left:1.1rem}td li{overflow-wrap:anywhere}
/* form */
.form-grid{display:grid;grid-template-columns:minmax(0,1fr);gap:1.1rem;max-width:46rem}
fieldset{min-width:0}input[type=file]{max-width:100%}
.field label,.field legend{font-weight:600;display:block}.field .hint{color:var(--muted);font-size:.9rem;margin:.1rem 0 .3rem}
.field input[type=text],.field input[type=email],.field input[type=url],.field select{width:100%}
fieldset{border:1px solid var(--line);border-radius:8px;padding:.6rem .9rem}
.checks{display:flex;flex-wrap:wrap;gap:.3rem 1.2rem}.checks label{font-weight:400;display:inline-flex;gap:.35rem;align-items:center}
.error{color:var(--bad);font-weight:600;margin:.3rem 0 0}.error::before{content:"\\26A0\\FE0E  "}
[aria-invalid=true]{border-color:var(--bad);border-width:2px}
.summary-box{border:2px solid var(--bad);border-radius:8px;padding:.6rem 1rem}
.success-box{border:2px solid var(--ok);border-radius:8px;padding:.6rem 1rem}
.files-list{list-style:none;padding:0;margin:.5rem 0;display:grid;gap:.5rem}
.files-list li{border:1px solid var(--line);border-radius:6px;padding:.5rem .6rem;display:grid;grid-template-columns:1fr auto;gap:.3rem .6rem;align-items:center}
.files-list li input{width:100%}.files-list .size{font-size:.85rem;color:var(--muted)}
.files-list li .error{grid-column:1/-1}
.adders{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,16rem),1fr));gap:.6rem}.adders input[type=file]{width:100%;margin-top:.2rem}.adders label{font-weight:600}
.paste{display:grid;gap:.4rem;margin-top:.6rem}
altcha-widget{display:block;max-width:26rem}
@media (max-width:40rem){h1{font-size:1.55rem}main{padding:.6rem .8rem 2rem}.cards{grid-template-columns:1fr}
th,td{padding:.35rem .3rem}.hide-narrow{display:none}
[role=tablist]{flex-wrap:nowrap;overflow-x:auto}[role=tab]{white-space:nowrap}
table.stack,table.stack tbody,table.stack tr,table.stack th,table.stack td{display:block}table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
table.stack tr{border-bottom:1px solid var(--line);padding:.4rem 0}table.stack th,table.stack td{border:none;padding:.1rem 0}
table.stack td[data-label]::before{content:attr(data-label) ": ";font-weight:600;color:var(--muted)}}
`;

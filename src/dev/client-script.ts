/**
 * The script `loadout dev` adds to every page it serves (app.ts): it listens to the session's
 * server-sent events (WHATWG HTML, "Server-sent events": `EventSource`), reloads the page when
 * a build was written (and, unless it is a loadout's own page, when the catalogue documents the
 * build deferred were written: the `documents` event), and shows the last build's report
 * (report.ts) in a panel: each changed loadout's failing checks and notices, and its context
 * cost per agent. A build refused by a
 * broken loadout does not reload the page; the panel shows why. Served as a file of its own
 * (`script-src 'self'` in the pages' CSP allows it; inline script would not be).
 */

/** Where the session serves the script, its events and its last report. */
export const DEV_PATHS = { script: '/__loadout/dev.js', events: '/__loadout/events', report: '/__loadout/report' } as const;

/** The script's text (plain ES2020, no build step). */
export const DEV_CLIENT_SCRIPT = `(() => {
  const paths = ${JSON.stringify(DEV_PATHS)};
  const panel = document.createElement('aside');
  panel.setAttribute('aria-live', 'polite');
  panel.setAttribute('data-loadout-dev', '');
  panel.style.cssText = 'position:fixed;right:1rem;bottom:1rem;max-width:36rem;max-height:50vh;overflow:auto;background:#fff;color:#111;border:2px solid #555;border-radius:6px;padding:.5rem .75rem;font:13px/1.4 system-ui,sans-serif;z-index:2147483647;box-shadow:0 2px 8px rgba(0,0,0,.3)';
  const line = (text, strong) => { const p = document.createElement(strong ? 'strong' : 'div'); p.textContent = text; return p; };
  const show = (report) => {
    panel.replaceChildren();
    if (!report) return;
    panel.append(line((report.written ? 'loadout dev: built in ' : 'loadout dev: refused after ') + report.ms + ' ms', true));
    for (const l of report.loadouts) {
      panel.append(line(l.id + ': ' + l.state, true));
      for (const c of l.checks) {
        if (c.status === 'fail') panel.append(line('FAIL ' + c.id + ': ' + c.summary));
        for (const d of c.details) if (c.status === 'fail' || d.startsWith('notice: ')) panel.append(line('  ' + d));
      }
      if (l.context) panel.append(line('context (tokens at start + on demand): ' + Object.entries(l.context).map(([agent, cost]) => agent + ' ' + cost.always.tokens + ' + ' + cost.on_demand.tokens).join(', ')));
    }
    for (const w of report.warnings) panel.append(line('warning: ' + w));
    if (!panel.isConnected) document.body.append(panel);
  };
  fetch(paths.report).then((r) => r.json()).then(show, () => undefined);
  const events = new EventSource(paths.events);
  events.addEventListener('reload', () => location.reload());
  // The documents that list every loadout came after the build: a loadout's own page has not changed since.
  const ownPage = /^[/]loadouts[/][^/]+[/]$/;
  events.addEventListener('documents', () => { if (!ownPage.test(location.pathname)) location.reload(); });
  events.addEventListener('refused', (event) => show(JSON.parse(event.data)));
})();
`;

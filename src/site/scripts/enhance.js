// Porchlight progressive enhancement. Every page works fully without it.
(() => {
  const doc = document;

  // Times in the visitor's zone (UTC words stay in title), and "x ago" from the visitor's
  // clock: the HTML may be hours old (CDN, static export).
  const local = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric', month: 'short', year: 'numeric',
    hour: '2-digit', minute: '2-digit', timeZoneName: 'short',
  });
  const words = new Intl.RelativeTimeFormat('en');
  // As format-date.ts: largest whole unit, floored.
  const units = [['year', 31536e6], ['month', 2592e6], ['day', 864e5], ['hour', 36e5], ['minute', 6e4]];
  const ago = (ms) => {
    const diff = ms - Date.now();
    const unit = units.find((u) => Math.abs(diff) >= u[1]);
    return unit ? words.format(Math.trunc(diff / unit[1]), unit[0]) : diff > 0 ? 'in less than a minute' : 'less than a minute ago';
  };
  for (const time of doc.querySelectorAll('time[data-local]')) {
    const ms = Date.parse(time.dateTime);
    if (Number.isNaN(ms)) continue;
    time.textContent = local.format(ms);
    if (!time.hasAttribute('data-relative')) continue;
    const note = doc.createElement('span');
    note.className = 'pl-time__relative';
    note.textContent = ` (${ago(ms)})`;
    time.after(note);
  }

  // Auto-refresh while the tab is visible, with a pause toggle (WCAG 2.2.1).
  const seconds = Number(doc.documentElement.dataset.refresh);
  const slot = doc.querySelector('[data-refresh-slot]');
  if (!slot || !Number.isFinite(seconds) || seconds < 10) return;

  const KEY = 'porchlight:refresh-paused';
  const store = (value) => {
    try {
      if (value) sessionStorage.setItem(KEY, '1');
      else sessionStorage.removeItem(KEY);
    } catch {}
  };
  let paused = false;
  try { paused = sessionStorage.getItem(KEY) === '1'; } catch {}

  const period = seconds * 1000;
  let due = performance.now() + period;
  let timer = 0;

  const schedule = () => {
    clearTimeout(timer);
    if (paused || doc.visibilityState !== 'visible') return;
    timer = setTimeout(() => {
      // Someone reading an opened disclosure or a day of an uptime bar (focus in it) keeps
      // it: try again next period.
      if (doc.querySelector('details[open], .pl-uptime :focus')) {
        due = performance.now() + period;
        schedule();
      } else {
        location.reload();
      }
    }, Math.max(0, due - performance.now()));
  };

  const note = doc.createElement('span');
  note.className = 'pl-refresh__note';
  note.setAttribute('aria-live', 'polite');
  const button = doc.createElement('button');
  button.type = 'button';
  button.className = 'pl-refresh__toggle';

  const render = () => {
    note.textContent = paused ? 'Auto-refresh is paused.' : `This page refreshes every ${seconds} seconds.`;
    button.textContent = paused ? 'Resume auto-refresh' : 'Pause auto-refresh';
  };

  button.addEventListener('click', () => {
    paused = !paused;
    store(paused);
    due = performance.now() + period;
    render();
    schedule();
  });
  doc.addEventListener('visibilitychange', schedule);

  render();
  slot.append(note, ' ', button);
  slot.hidden = false;
  schedule();
})();

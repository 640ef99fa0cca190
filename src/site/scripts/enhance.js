// Porchlight progressive enhancement. Every page works fully without it.
(() => {
  const doc = document;
  const root = doc.documentElement;
  // data-intl: the locale the page's dates are written in (e.g. en-GB for lang="en").
  const lang = root.dataset.intl || root.lang || 'en-GB';
  // Times in the visitor's zone (the page's words stay in title), and "x ago" from the
  // visitor's clock: the HTML may be hours old (CDN, static export). After the first paint: the
  // browser's first date formatter loads its locale data (15-25 ms, 4x that on a slow phone),
  // which must not hold back the status (issue 34). A rewrite that would make a line on or above
  // the screen taller (and move what follows) is undone and offered as the time's title instead.
  const localize = () => {
    const local = new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
    const words = new Intl.RelativeTimeFormat(lang);
    // As format-date.ts: largest whole unit, floored.
    const units = [['year', 31536e6], ['month', 2592e6], ['day', 864e5], ['hour', 36e5], ['minute', 6e4]];
    const ago = (ms) => {
      const diff = ms - Date.now();
      const unit = units.find((u) => Math.abs(diff) >= u[1]);
      return unit ? words.format(Math.trunc(diff / unit[1]), unit[0]) : new Intl.RelativeTimeFormat(lang, { numeric: 'auto' }).format(0, 'second');
    };
    const box = (time) => time.parentNode.closest('p,li,div,dd,td');
    const height = (time) => box(time).getBoundingClientRect().height;
    const times = [...doc.querySelectorAll('time[data-local]')].filter((time) => !Number.isNaN(Date.parse(time.dateTime)) && box(time));
    // One layout to read, one to write, one to check.
    const seen = times.map((time) => box(time).getBoundingClientRect().top < innerHeight && height(time));
    const was = times.map((time) => time.textContent);
    times.forEach((time) => {
      const ms = Date.parse(time.dateTime);
      time.textContent = local.format(ms);
      if (!time.hasAttribute('data-relative')) return;
      const note = doc.createElement('span');
      note.className = 'pl-time__relative';
      note.textContent = ` (${ago(ms)})`;
      time.after(note);
    });
    const grown = times.filter((time, i) => seen[i] !== false && height(time) !== seen[i]);
    for (const time of grown) {
      const note = time.hasAttribute('data-relative') && time.nextSibling;
      time.title = time.textContent + (note ? note.textContent : '');
      if (note) note.remove();
      time.textContent = was[times.indexOf(time)];
    }
  };
  // The browser's language may only suggest another language of the page (a switcher link).
  const base = (code) => code.toLowerCase().split('-')[0];
  const links = [...doc.querySelectorAll('a[hreflang]')];
  for (const want of (globalThis.navigator || {}).languages || []) {
    if (base(want) === base(root.lang)) break;
    const link = links.find((a) => base(a.hreflang) === base(want));
    const main = doc.querySelector('main');
    if (!link || !main) continue;
    const p = doc.createElement('p');
    const a = link.cloneNode();
    p.className = 'pl-suggest';
    a.textContent = a.dataset.suggest;
    a.removeAttribute('aria-current');
    p.append(a);
    main.prepend(p);
    break;
  }
  // Auto-refresh while the tab is visible, with a pause toggle (WCAG 2.2.1). After the first paint
  // too: reading sessionStorage is a round trip to the browser process (issue 34), and the
  // line's place is held empty from the first frame (@media (scripting: enabled)). Counted from
  // now: a tab opened in the background (no frames) reloads as soon as it is shown, if due.
  const loaded = performance.now();
  const refresh = () => {
    const seconds = Number(root.dataset.refresh);
    const slot = doc.querySelector('[data-refresh-slot]');
    if (!slot || !Number.isFinite(seconds) || seconds < 10) return;
    const KEY = 'porchlight:refresh-paused';
    const store = (value) => {
      try { value ? sessionStorage.setItem(KEY, '1') : sessionStorage.removeItem(KEY); } catch {}
    };
    let paused = false;
    try { paused = sessionStorage.getItem(KEY) === '1'; } catch {}
    const period = seconds * 1000;
    let due = loaded + period;
    let timer = 0;
    const schedule = () => {
      clearTimeout(timer);
      if (paused || doc.visibilityState !== 'visible') return;
      timer = setTimeout(() => {
        // Someone reading an open disclosure or a day of an uptime bar keeps it: retry later.
        if (!doc.querySelector('details[open], .pl-uptime :focus')) return location.reload();
        due = performance.now() + period;
        schedule();
      }, Math.max(0, due - performance.now()));
    };
    const note = doc.createElement('span');
    const button = doc.createElement('button');
    note.className = 'pl-refresh__note';
    note.setAttribute('aria-live', 'polite');
    button.type = 'button';
    button.className = 'pl-refresh__toggle';
    // The page's own words (i18n/script-words.ts).
    const text = slot.dataset;
    const render = () => {
      note.textContent = paused ? text.paused : text.every;
      button.textContent = paused ? text.resume : text.pause;
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
  };
  // Once the first contentful paint is on screen, not merely drawn: started at the first frame, this
  // work competed with that frame's raster and presentation (issue 34). A second after the first
  // frame at the latest: for a browser without paint timing, or one that reports none for a tab
  // opened in the background.
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    refresh();
    localize();
  };
  const Observer = globalThis.PerformanceObserver;
  if (Observer && (Observer.supportedEntryTypes || []).includes('paint')) {
    new Observer((list) => list.getEntriesByName('first-contentful-paint').length && setTimeout(start)).observe({ type: 'paint', buffered: true });
  }
  requestAnimationFrame(() => setTimeout(start, 1000));
})();

// Drawing a View (the contract's plain data for one viewer) as DOM. Only textContent and
// attributes are ever set, never HTML, so nothing a player typed (a name) can become markup,
// and nothing needs an inline style: colours are classes, which the CSP allows.

const CDN = 'https://cdn.discordapp.com/';

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

/** A note the bot wrote for Discord (a hint): its **bold** and `code` as elements, the rest as
 * text, so no markup it holds can become HTML. */
export function inline(text) {
  return text.split(/(\*\*[^*]+\*\*|`[^`]+`)/).filter(Boolean).map((part) => {
    if (part.startsWith('**') && part.endsWith('**')) return el('strong', { text: part.slice(2, -2) });
    if (part.startsWith('`') && part.endsWith('`')) return el('code', { text: part.slice(1, -1) });
    return document.createTextNode(part);
  });
}

/** A label of the page's table with its {placeholders} filled. */
export function words(strings, key, values = {}) {
  const text = strings[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** A colour's digit as typed and shown: 1..9, and 0 for the tenth, as on a keypad. */
export function digit(colour) {
  return String(colour % 10);
}

export function avatar(user) {
  const node = el('span', { class: 'avatar', 'aria-hidden': 'true' });
  if (typeof user?.avatar_url === 'string' && user.avatar_url.startsWith(CDN)) {
    node.append(el('img', { src: user.avatar_url, alt: '', width: 28, height: 28, loading: 'lazy' }));
  } else {
    node.textContent = (user?.name || '?').slice(0, 1).toUpperCase();
  }
  return node;
}

export function peg(strings, colour, position, attrs = {}) {
  if (!colour) {
    return el('span', {
      class: 'peg empty',
      role: 'img',
      'aria-label': words(strings, 'empty_peg', { position }),
      ...attrs,
    });
  }
  return el(
    attrs.tag || 'span',
    {
      class: `peg c${colour}`,
      'data-colour': colour,
      role: attrs.tag ? undefined : 'img',
      'aria-label': words(strings, 'peg', { position, colour: `${digit(colour)} ${words(strings, `colour.${colour}`)}` }),
      ...Object.fromEntries(Object.entries(attrs).filter(([name]) => name !== 'tag')),
    },
    digit(colour),
  );
}

export function pegs(strings, code, count = code.length) {
  const list = el('span', { class: 'pegs' });
  for (let i = 0; i < count; i += 1) list.append(peg(strings, code[i], i + 1));
  return list;
}

function clue(strings, row) {
  const dots = el('span', { class: 'dots', 'aria-hidden': 'true' });
  for (let i = 0; i < row.black; i += 1) dots.append(el('span', { class: 'dot black' }));
  for (let i = 0; i < row.white; i += 1) dots.append(el('span', { class: 'dot white' }));
  return el(
    'span',
    { class: 'clue' },
    dots,
    el('span', { class: 'words', text: words(strings, 'clue', { black: row.black, white: row.white }) }),
  );
}

function row(strings, item, index, fresh) {
  const by = item.by
    ? el(
        'span',
        { class: 'by', title: words(strings, 'guess_by', { name: item.by.name }) },
        avatar(item.by),
        el('span', { class: 'name', text: item.by.name }),
      )
    : null;
  return el(
    'li',
    { class: fresh ? 'row fresh' : 'row', 'data-row': index + 1 },
    el('span', { class: 'n', text: String(index + 1) }),
    pegs(strings, item.code),
    el('span', { class: 'clue-by' }, clue(strings, item), by),
  );
}

function people(strings, title, items, line) {
  return el(
    'section',
    { class: 'side' },
    el('h2', { text: title }),
    el(
      'ol',
      { class: 'list' },
      items.map((item) =>
        el('li', { class: item.done ? 'done' : undefined }, avatar(item.by), el('span', { text: line(item) })),
      ),
    ),
  );
}

export function remaining(endsAt, now = Date.now()) {
  const seconds = Math.max(0, Math.round((Date.parse(endsAt) - now) / 1000));
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The whole game section for `state` (a view and what the player is entering). */
export function drawGame(state) {
  const { strings, view } = state;
  const extra = view.extra || {};
  const actions = new Set(view.actions || []);
  const busy = state.busy;
  const section = [];

  const meta = el(
    'div',
    { class: 'meta' },
    el('span', { class: 'badge', 'data-variant': `${view.pegs}x${view.colours}`, text: `${view.pegs} × ${view.colours}` }),
    view.hard ? el('span', { class: 'badge', text: words(strings, 'hard') }) : null,
    view.status === 'running' && view.remaining !== undefined && view.remaining !== null
      ? el('span', { class: 'remaining', text: words(strings, 'guesses_left', { count: view.remaining }) })
      : null,
    extra.ends_at && view.status === 'running'
      ? el('span', { class: 'clock', 'data-ends-at': extra.ends_at, role: 'timer',
          text: words(strings, 'time_left', { time: remaining(extra.ends_at) }) })
      : null,
  );
  section.push(meta);

  if (view.status !== 'running') {
    section.push(el('p', { class: 'notice info result', 'data-status': view.status, text: words(strings, `status.${view.status}`) }));
  }
  if (Array.isArray(view.secret)) {
    section.push(el('p', { class: 'secret' }, el('span', { text: words(strings, 'secret') + ' ' }), pegs(strings, view.secret)));
  }
  if (extra.not_on_activity) section.push(el('p', { class: 'notice info elsewhere', text: words(strings, 'not_on_activity') }));
  if (extra.phase === 'lobby') section.push(el('p', { class: 'lobby', text: words(strings, 'lobby') }));
  if ((extra.progress !== undefined || extra.phase) && actions.has('guess')) {
    section.push(el('p', { class: 'help private', text: words(strings, 'private_board') }));
  }

  const rows = view.rows || [];
  section.push(
    el('ol', { class: 'rows', 'aria-label': words(strings, 'title') },
      rows.map((item, index) => row(strings, item, index, index >= state.seenRows)),
    ),
  );

  const answering = Array.isArray(extra.guess) && actions.has('answer');
  if (answering) section.push(answerPanel(state, extra));
  else if (extra.contradiction) section.push(el('p', { class: 'notice contradiction', role: 'alert', text: words(strings, 'contradiction', { reason: extra.contradiction }) }));

  if (actions.has('guess')) section.push(entryPanel(state));

  // Every other action the viewer may take is a button (undo too, when no guess awaits).
  const own = answering ? ['guess', 'answer', 'undo'] : ['guess', 'answer'];
  const buttons = [...actions].filter((name) => !own.includes(name));
  if (buttons.length) {
    section.push(
      el('div', { class: 'row-buttons actions' },
        buttons.map((name) =>
          el('button', {
            type: 'button', class: name === 'giveup' ? 'button danger' : name === 'join' || name === 'start' ? 'button primary' : 'button',
            'data-action': name, 'data-key': `action-${name}`, disabled: busy, text: words(strings, `action.${name}`),
          }),
        ),
      ),
    );
  }

  if (state.review && state.review.game_id === view.game_id) section.push(reviewPanel(strings, state.review));

  const standing = (item) =>
    (item.place ? `${item.place}. ` : '') +
    (item.done ? words(strings, 'progress_done', { name: item.by.name }) : words(strings, 'progress_row', { name: item.by.name, count: item.guesses }));
  if (Array.isArray(extra.standings) && extra.standings.length) {
    section.push(people(strings, words(strings, 'standings'), extra.standings, standing));
  }
  // The others' progress on their private boards (the viewer's own board is above).
  const others = (extra.progress || []).filter((item) => item.by?.id !== state.user?.id);
  if (others.length) section.push(people(strings, words(strings, 'progress'), others, standing));
  return section;
}

/** What Review said: its lines (Discord's bold and code drawn), and its chart. The chart is
 * a PNG the bot drew, handed over as a data: URL, the one image source besides the CDN. */
function reviewPanel(strings, review) {
  const lines = (review.note || '').split('\n').filter(Boolean);
  const picture = typeof review.picture === 'string' && review.picture.startsWith('data:image/png;base64,')
    ? el('img', { class: 'chart', src: review.picture, alt: words(strings, 'review_chart') })
    : null;
  return el(
    'section',
    { class: 'side review', 'aria-label': words(strings, 'action.review') },
    el('h2', { text: words(strings, 'action.review') }),
    lines.map((line) => el('p', { class: 'review-line' }, inline(line))),
    picture,
  );
}

function entryPanel(state) {
  const { strings, view, draft, busy } = state;
  const slots = el('span', { class: 'pegs draft', 'aria-live': 'polite' });
  for (let i = 0; i < view.pegs; i += 1) slots.append(peg(strings, draft[i], i + 1));
  const palette = el('div', { class: 'palette', role: 'group', 'aria-label': words(strings, 'palette') });
  for (let colour = 1; colour <= view.colours; colour += 1) {
    palette.append(peg(strings, colour, digit(colour), {
      tag: 'button', type: 'button', 'data-pick': colour, 'data-key': `pick-${colour}`,
      'aria-label': `${digit(colour)} ${words(strings, `colour.${colour}`)}`,
      disabled: busy || draft.length >= view.pegs ? true : undefined,
    }));
  }
  return el(
    'section',
    { class: 'entry', 'aria-label': words(strings, 'your_guess') },
    el('h2', { text: words(strings, 'your_guess') }),
    slots,
    palette,
    el('div', { class: 'row-buttons' },
      el('button', { type: 'button', class: 'button', 'data-delete': '', 'data-key': 'delete',
        disabled: busy || !draft.length, 'aria-label': words(strings, 'delete'), text: '⌫' }),
      el('button', { type: 'button', class: 'button primary', 'data-submit': 'guess', 'data-key': 'submit',
        disabled: busy || draft.length !== view.pegs, text: words(strings, 'action.guess') }),
    ),
    el('p', { class: 'help', text: words(strings, 'keys_help') }),
  );
}

function counts(strings, name, label, chosen, max, busy) {
  const group = el('div', { class: 'counts', role: 'group', 'aria-label': label });
  for (let n = 0; n <= max; n += 1) {
    group.append(el('button', {
      type: 'button', 'data-count': name, 'data-value': n, 'data-key': `${name}-${n}`,
      'aria-pressed': chosen === n ? 'true' : 'false', disabled: busy, text: String(n),
    }));
  }
  return el('div', {}, el('h3', { class: 'help', text: label }), group);
}

function answerPanel(state, extra) {
  const { strings, view, answer, busy } = state;
  const actions = new Set(view.actions || []);
  return el(
    'section',
    { class: 'answer', 'aria-label': words(strings, 'bot_guess') },
    el('h2', { text: words(strings, 'bot_guess') }),
    el('div', { class: 'bot-guess' }, pegs(strings, extra.guess)),
    extra.contradiction
      ? el('p', { class: 'notice contradiction', role: 'alert', text: words(strings, 'contradiction', { reason: extra.contradiction }) })
      : null,
    counts(strings, 'black', words(strings, 'black_pegs'), answer.black, view.pegs, busy),
    counts(strings, 'white', words(strings, 'white_pegs'), answer.white, view.pegs, busy),
    el('div', { class: 'row-buttons' },
      el('button', { type: 'button', class: 'button primary', 'data-submit': 'answer', 'data-key': 'answer',
        disabled: busy || answer.black === null || answer.white === null, text: words(strings, 'action.answer') }),
      actions.has('undo') || extra.can_undo
        ? el('button', { type: 'button', class: 'button', 'data-action': 'undo', 'data-key': 'undo',
            disabled: busy || !actions.has('undo'), text: words(strings, 'action.undo') })
        : null,
    ),
  );
}

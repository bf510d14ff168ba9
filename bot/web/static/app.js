// The Activity page: signs in through Discord, then shows the channel's game and keeps it live.
// Every move goes to the bot as an action with a fresh nonce (retried with the same nonce after
// a network failure, so it is stored once); the bot answers with the new View, and the live feed
// brings everyone else's moves. A View is only ever replaced by a newer one.
import { Api } from './api.js';
import { Live } from './live.js';
import { signIn } from './signin.js';
import { avatar, drawGame, el, inline, remaining, words } from './view.js';

const api = new Api();
const state = {
  strings: {},
  user: null,
  view: null,
  presence: [],
  draft: [],
  answer: { black: null, white: null },
  busy: false,
  seenRows: 0,
  live: 'connecting',
  review: null, // {game_id, note, picture}: what Review said, for this player alone
};
const REFETCH = new Set(['stale_game', 'unknown_game', 'game_over', 'already_applied', 'not_here']);
const $ = (id) => document.getElementById(id);

function say(key, values) {
  return words(state.strings, key, values);
}

function notice(text, kind = 'error') {
  const box = $('notice');
  box.replaceChildren(...(text ? inline(text) : []));
  box.className = kind === 'error' ? 'notice' : 'notice info';
  box.hidden = !text;
}

function render() {
  const focused = document.activeElement?.getAttribute?.('data-key');
  $('title').textContent = say('title');
  document.title = say('title');
  $('status').textContent = state.live === 'reconnecting' ? say('reconnecting') : '';
  const here = $('presence');
  here.setAttribute('aria-label', say('here_now'));
  here.replaceChildren(
    ...state.presence.map((user) => el('li', { title: user.name, 'data-user': user.id }, avatar(user), el('span', { class: 'sr-only', text: user.name }))),
  );
  const game = $('game');
  const empty = $('empty');
  if (state.view) {
    game.replaceChildren(...drawGame(state));
    game.dataset.kind = state.view.kind;
    game.dataset.version = state.view.version;
    game.dataset.status = state.view.status;
    game.hidden = false;
    empty.hidden = true;
    state.seenRows = (state.view.rows || []).length;
  } else {
    game.replaceChildren();
    game.hidden = true;
    empty.textContent = say('no_game');
    empty.hidden = false;
  }
  $('app').setAttribute('aria-busy', state.busy ? 'true' : 'false');
  if (focused) document.querySelector(`[data-key="${focused}"]:not(:disabled)`)?.focus();
}

/** Take a View if it is newer than the one shown (answers and pushes may cross). */
function accept(view) {
  const current = state.view;
  if (view && current && view.game_id === current.game_id && view.version < current.version) return;
  const changed = !view || !current || view.game_id !== current.game_id || view.version !== current.version;
  // A board seen for the first time appears as it is; only rows that arrive later slide in.
  if (view && (!current || view.game_id !== current.game_id)) state.seenRows = (view.rows || []).length;
  if (changed) state.answer = { black: null, white: null };
  if (!view || state.review?.game_id !== view.game_id) state.review = null;
  if (!view || !(view.actions || []).includes('guess')) state.draft = [];
  state.view = view;
  render();
}

async function refresh() {
  const data = await api.call('GET', '/api/game');
  state.presence = data.presence || [];
  accept(data.game);
}

async function send(body) {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await api.call('POST', '/api/action', body);
    } catch (error) {
      if (error.code === 'network' && attempt < 3) {
        await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
        continue;
      }
      // A retry of a move the bot had already stored: it is on the board, fetch it.
      if (error.code === 'already_applied' && attempt > 0) return null;
      throw error;
    }
  }
}

async function act(action, args = {}) {
  const view = state.view;
  if (!view || state.busy) return;
  state.busy = true;
  notice('');
  render();
  try {
    const body = { game_id: view.game_id, version: view.version, action, args, nonce: crypto.randomUUID() };
    const answer = await send(body);
    if (action === 'guess') state.draft = [];
    if (answer) {
      accept(answer.game);
      if (action === 'review') state.review = { game_id: view.game_id, note: answer.note, picture: answer.picture };
      else if (answer.note) notice(answer.note, 'info');
    } else await refresh();
  } catch (error) {
    notice(error.message || say('error'));
    // The board moved on without this page (or the game ended): show where it is now.
    if (REFETCH.has(error.code)) await refresh().catch(() => {});
  } finally {
    state.busy = false;
    render();
  }
}

function pick(colour) {
  const view = state.view;
  if (!view || state.busy || !(view.actions || []).includes('guess')) return;
  if (colour < 1 || colour > view.colours || state.draft.length >= view.pegs) return;
  state.draft = [...state.draft, colour];
  render();
  // A whole code: Guess takes the focus, so Enter sends it wherever the focus was before.
  if (state.draft.length === view.pegs) document.querySelector('[data-submit="guess"]')?.focus();
}

function unpick() {
  if (!state.draft.length) return false;
  state.draft = state.draft.slice(0, -1);
  render();
  return true;
}

function guess() {
  if (state.view && state.draft.length === state.view.pegs) act('guess', { code: state.draft });
}

function answer() {
  const { black, white } = state.answer;
  if (black !== null && white !== null) act('answer', { black, white });
}

function confirmGiveUp() {
  const dialog = $('confirm');
  $('confirm-text').textContent = say('giveup_confirm');
  $('confirm-cancel').textContent = say('cancel');
  $('confirm-ok').textContent = say('action.giveup');
  dialog.returnValue = '';
  dialog.showModal();
  $('confirm-cancel').focus();
}

function onClick(event) {
  const button = event.target.closest('button');
  if (!button || button.disabled) return;
  if (button.dataset.pick) pick(Number(button.dataset.pick));
  else if (button.dataset.delete !== undefined) unpick();
  else if (button.dataset.submit === 'guess') guess();
  else if (button.dataset.submit === 'answer') answer();
  else if (button.dataset.count) {
    state.answer = { ...state.answer, [button.dataset.count]: Number(button.dataset.value) };
    render();
  } else if (button.dataset.action === 'giveup') confirmGiveUp();
  else if (button.dataset.action) act(button.dataset.action);
}

/** Digits pick, Backspace deletes, Enter sends; Tab and every modified key are left alone. */
function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || $('confirm').open) return;
  if (event.key === 'Escape') {
    notice('');
    return;
  }
  const view = state.view;
  if (!view || state.busy) return;
  const actions = view.actions || [];
  const onButton = event.target instanceof HTMLButtonElement;
  if (actions.includes('guess')) {
    if (/^[0-9]$/.test(event.key)) {
      pick(event.key === '0' ? 10 : Number(event.key));
      event.preventDefault();
    } else if (event.key === 'Backspace' && unpick()) event.preventDefault();
    else if (event.key === 'Enter' && !onButton && state.draft.length === view.pegs) {
      event.preventDefault();
      guess();
    }
  } else if (actions.includes('answer')) {
    if (/^[0-9]$/.test(event.key) && Number(event.key) <= view.pegs) {
      const which = state.answer.black === null ? 'black' : 'white';
      state.answer = { ...state.answer, [which]: Number(event.key) };
      event.preventDefault();
      render();
      // Both counts given: Answer takes the focus, so Enter sends it wherever the focus was.
      if (which === 'white') document.querySelector('[data-submit="answer"]')?.focus();
    } else if (event.key === 'Backspace') {
      const which = state.answer.white !== null ? 'white' : 'black';
      state.answer = { ...state.answer, [which]: null };
      event.preventDefault();
      render();
    } else if (event.key === 'Enter' && !onButton) {
      event.preventDefault();
      answer();
    }
  }
}

function tick() {
  for (const clock of document.querySelectorAll('.clock[data-ends-at]')) {
    clock.textContent = say('time_left', { time: remaining(clock.dataset.endsAt) });
  }
}

async function main() {
  document.addEventListener('click', onClick);
  document.addEventListener('keydown', onKey);
  $('confirm').addEventListener('close', () => {
    if ($('confirm').returnValue === 'ok') act('giveup');
  });
  let session;
  try {
    session = await signIn(api);
    state.user = session.user;
    document.documentElement.lang = session.locale || 'en';
    state.strings = await api.call('GET', '/api/strings');
    await refresh();
  } catch (error) {
    // Refused (not in this Activity, a session the bot does not know, Discord away): said in
    // the player's words where the bot gave them, and the page stops here.
    notice(error.message || error.code || String(error));
    $('app').setAttribute('aria-busy', 'false');
    document.body.dataset.ready = 'failed';
    return;
  }
  const live = new Live(session.session, {
    onMessage(message) {
      if (message.type === 'game') accept(message.game);
      else if (message.type === 'error') {
        notice(message.message || say('error'));
        if (message.error === 'bad_session') live.stop(); // signing in again is a new launch
      }
      else if (message.type === 'presence') {
        state.presence = message.presence || [];
        render();
      }
    },
    onState(value) {
      state.live = value;
      render();
    },
  });
  live.start();
  setInterval(tick, 1000);
  document.body.dataset.ready = 'true';
}

main();

// The Discord client's side of the Embedded App SDK's postMessage protocol, for the browser
// tests: this page is the parent window Discord would be, and the Activity runs in its iframe
// with the real SDK. It answers the handshake with READY and the commands the page sends
// (AUTHORIZE, AUTHENTICATE, CAPTURE_LOG) as the client does, with codes and tokens minted by the
// fake Discord (through functions the test exposes); anything else, or a message of the wrong
// shape, is recorded as drift, which the test fails on.
const params = new URLSearchParams(location.search);
const appId = params.get('app');
const frameId = params.get('frame');
const user = params.get('user');
const activity = new URL(params.get('src'));
const drift = [];
const commands = [];
window.__drift = drift;
window.__commands = commands;

const HANDSHAKE = 0;
const FRAME = 1;
const SCOPES = new Set(['identify', 'guilds', 'guilds.members.read', 'rpc.activities.write']);
const frame = document.getElementById('activity');

function check(condition, what) {
  if (!condition) drift.push(what);
  return condition;
}

function reply(message) {
  frame.contentWindow.postMessage([FRAME, message], activity.origin);
}

function answer(command, data) {
  reply({ cmd: command.cmd, evt: null, nonce: command.nonce, data });
}

function refuse(command, code, message) {
  reply({ cmd: command.cmd, evt: 'ERROR', nonce: command.nonce, data: { code, message } });
}

async function onCommand(command) {
  commands.push(command.cmd);
  if (!check(typeof command.nonce === 'string' && command.nonce.length > 0, `no nonce: ${JSON.stringify(command)}`)) return;
  const args = command.args || {};
  switch (command.cmd) {
    case 'AUTHORIZE': {
      check(args.client_id === appId, `AUTHORIZE for another app: ${args.client_id}`);
      check(args.response_type === 'code', `AUTHORIZE response_type ${args.response_type}`);
      check(Array.isArray(args.scope) && args.scope.every((s) => SCOPES.has(s)), `AUTHORIZE scope ${JSON.stringify(args.scope)}`);
      const code = await window.discordMintCode(user);
      if (code === null) return refuse(command, 4010, 'user refused');
      return answer(command, { code });
    }
    case 'AUTHENTICATE': {
      check(typeof args.access_token === 'string', 'AUTHENTICATE without an access_token');
      const me = await window.discordWhoIs(args.access_token || '');
      if (me === null) return refuse(command, 4009, 'Invalid token');
      return answer(command, {
        access_token: args.access_token,
        user: { username: me.username, discriminator: '0', id: me.id, avatar: me.avatar ?? null, public_flags: 0, global_name: me.global_name ?? null },
        scopes: ['identify'],
        expires: new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString(),
        application: { description: '', icon: null, id: appId, rpc_origins: [], name: 'Mastermind' },
      });
    }
    case 'CAPTURE_LOG':
      check(typeof args.level === 'string' && typeof args.message === 'string', 'CAPTURE_LOG shape');
      window.__logs = [...(window.__logs || []), `${args.level}: ${args.message}`];
      return answer(command, null);
    default:
      drift.push(`unexpected command ${command.cmd}`);
      return refuse(command, 4002, `Invalid command: ${command.cmd}`);
  }
}

window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow) return;
  if (!check(event.origin === activity.origin, `message from ${event.origin}`)) return;
  const data = event.data;
  if (!check(Array.isArray(data) && data.length === 2, `not an [opcode, payload] pair: ${JSON.stringify(data)}`)) return;
  const [opcode, payload] = data;
  if (opcode === HANDSHAKE) {
    check(payload.v === 1 && payload.encoding === 'json', `handshake version ${JSON.stringify(payload)}`);
    check(payload.client_id === appId, `handshake for another app: ${payload.client_id}`);
    check(payload.frame_id === frameId, `handshake from another frame: ${payload.frame_id}`);
    window.__sdkVersion = payload.sdk_version;
    reply({
      cmd: 'DISPATCH', evt: 'READY', nonce: null,
      data: { v: 1, config: { cdn_host: 'cdn.discordapp.com', api_endpoint: '//discord.com/api', environment: 'production' } },
    });
  } else if (opcode === FRAME) {
    onCommand(payload);
  } else {
    drift.push(`unexpected opcode ${opcode}`);
  }
});

frame.src = activity.href;

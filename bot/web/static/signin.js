// Sign-in through Discord's Embedded App SDK, as the contract has it: the SDK's handshake with
// the Discord client (ready), the user's consent (authorize, which gives a one-time code), the
// bot's server exchanging that code with its client secret (POST /api/session: the browser never
// sees the secret), then authenticate with the access token the server handed back.
import { DiscordSDK } from './vendor/embedded-app-sdk.js';

export async function signIn(api) {
  const config = await api.call('GET', '/api/config');
  const sdk = new DiscordSDK(config.client_id);
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: config.client_id,
    response_type: 'code',
    state: '',
    prompt: 'none',
    scope: ['identify'],
  });
  const session = await api.call('POST', '/api/session', { code, instance_id: sdk.instanceId });
  api.session = session.session;
  await sdk.commands.authenticate({ access_token: session.access_token });
  return { sdk, ...session };
}

import { describe, expect, test } from 'vitest';
import { png } from '../demo-bot/files';
import { DEMO_CHANNELS, DEMO_ROLES } from './demo-data';
import { BOT_AUTH, PREFIX, useHarness } from './test-helpers';

const SUPPORT = DEMO_CHANNELS.avasArcade.support;

/** A multipart body as a client builds it (the platform's FormData). */
async function multipart(payload: unknown, files: Array<{ name: string; filename: string; type: string; data: Buffer | string }>) {
  const form = new FormData();
  if (payload !== undefined) form.append('payload_json', JSON.stringify(payload));
  for (const file of files) form.append(file.name, new Blob([file.data], { type: file.type }), file.filename);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

describe('uploads: POST /channels/{id}/messages as multipart/form-data', () => {
  const sandbox = useHarness({ baseUrl: `http://localhost:3000${PREFIX}` });
  const post = async (channelId: string, body: { payload: Buffer; contentType: string }) =>
    sandbox.app.inject({ method: 'POST', url: `${PREFIX}/api/v10/channels/${channelId}/messages`, headers: { authorization: BOT_AUTH, 'content-type': body.contentType }, payload: body.payload });

  test('posts the files with the message; the signed CDN link serves them; the page shows them', async () => {
    const image = png(3, 2, () => [255, 0, 0]);
    const res = await post(
      SUPPORT,
      await multipart({ content: 'Here you go', attachments: [{ id: 0, filename: 'order log.txt' }], nonce: 'n-1', enforce_nonce: true }, [
        { name: 'files[0]', filename: 'ignored.txt', type: 'text/plain', data: 'order AA-12345' },
        { name: 'files[1]', filename: 'shot.png', type: 'image/png', data: image },
      ]),
    );
    expect(res.statusCode).toBe(200);
    const message = res.json();
    expect(message.content).toBe('Here you go');
    expect(message.attachments).toEqual([
      { id: expect.any(String), filename: 'order_log.txt', size: 14, url: expect.stringMatching(/^http:\/\/localhost:3000\/sandbox\/discord\/cdn\/attachments\/\d+\/\d+\/order_log\.txt\?ex=[0-9a-f]+&is=[0-9a-f]+&hm=[0-9a-f]{64}&$/), proxy_url: expect.any(String), content_type: 'text/plain' },
      { id: expect.any(String), filename: 'shot.png', size: image.length, url: expect.any(String), proxy_url: expect.any(String), content_type: 'image/png', width: 3, height: 2 },
    ]);
    const file = await sandbox.app.inject({ method: 'GET', url: new URL(message.attachments[0].url).pathname + new URL(message.attachments[0].url).search });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('order AA-12345');
    // The same nonce again: the first message is the answer, nothing new is posted.
    const again = await post(SUPPORT, await multipart({ content: 'Here you go', nonce: 'n-1', enforce_nonce: true }, [{ name: 'files[0]', filename: 'a.txt', type: 'text/plain', data: 'x' }]));
    expect(again.json().id).toBe(message.id);
    const page = await sandbox.app.inject({ method: 'GET', url: `${PREFIX}/channels/${SUPPORT}` });
    expect(page.body).toContain('order_log.txt');
    expect(page.body).toMatch(/<img src="\.\.\/cdn\/attachments\/[^"]+shot\.png\?ex=/);
  });

  test('a file alone is a message; Attach Files is needed; at most 10 files; malformed bodies are refused', async () => {
    const alone = await post(SUPPORT, await multipart(undefined, [{ name: 'files[0]', filename: 'a.txt', type: 'text/plain', data: 'a' }]));
    expect(alone.statusCode).toBe(200);
    sandbox.h.control.setChannelOverwrites(SUPPORT, [{ id: DEMO_ROLES.avasArcade.tickety, type: 0, allow: '0', deny: String(1n << 15n) }]);
    const denied = await post(SUPPORT, await multipart({ content: 'x' }, [{ name: 'files[0]', filename: 'a.txt', type: 'text/plain', data: 'a' }]));
    expect(denied.json()).toEqual({ message: 'Missing Permissions', code: 50013 });
    sandbox.h.control.setChannelOverwrites(SUPPORT, null);
    const eleven = Array.from({ length: 11 }, (_, i) => ({ name: `files[${i}]`, filename: `f${i}.txt`, type: 'text/plain', data: 'x' }));
    expect((await post(SUPPORT, await multipart({ content: 'x' }, eleven))).json().errors.files._errors[0].code).toBe('BASE_TYPE_MAX_LENGTH');
    expect((await post(SUPPORT, { payload: Buffer.from('garbage'), contentType: 'multipart/form-data; boundary=xyz' })).json().code).toBe(50035);
    const badJson = await post(SUPPORT, { payload: Buffer.from('--b\r\ncontent-disposition: form-data; name="payload_json"\r\n\r\n{nope\r\n--b--\r\n'), contentType: 'multipart/form-data; boundary=b' });
    expect(badJson.json().code).toBe(50109);
  });
});

import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { COMPRESSION } from '../../lib/encoded-answer';

/** Every answer over 1 KB compressed (brotli at quality 4, else gzip): the pages, bundles and JSON. */
export default fp(
  async function compression(app: FastifyInstance) {
    await app.register(compress, {
      global: true,
      threshold: COMPRESSION.threshold,
      encodings: COMPRESSION.encodings,
      brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: COMPRESSION.brotliQuality } },
    });
  },
  { name: 'tickety-compression' },
);

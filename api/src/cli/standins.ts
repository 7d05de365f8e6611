import path from 'node:path';
import { startClioStandIn } from '../modules/integrations/clio/clio.standin';
import { startDropboxStandIn } from '../modules/integrations/dropbox/dropbox.standin';

/*
 * The Dropbox and Clio STAND-INS for development (the real services cannot be reached from a
 * laptop without registered apps): `npm run standins`, then start the product with the variables
 * printed. They are not Dropbox or Clio; nothing in the product's own code paths knows them.
 */
const dropboxPort = Number(process.env.DROPBOX_STANDIN_PORT ?? 8091);
const clioPort = Number(process.env.CLIO_STANDIN_PORT ?? 8092);
const root = path.resolve(process.env.DATA_DIR ?? './data', 'dropbox-standin');

const main = async () => {
  const dropbox = await startDropboxStandIn({ root, port: dropboxPort });
  const clio = await startClioStandIn({ port: clioPort });
  console.log(`Dropbox stand-in on ${dropbox.url} over ${root} (each account is a folder there)`);
  console.log(`Clio stand-in on ${clio.url} (matters ${clio.matters.map((m) => m.display_number).join(', ')})`);
  console.log('\nStart the product with:\n');
  console.log(
    `DROPBOX_CLIENT_ID=standin DROPBOX_AUTHORIZE_URL=${dropbox.url}/oauth2/authorize DROPBOX_API_URL=${dropbox.url} DROPBOX_CONTENT_URL=${dropbox.url} \\`,
  );
  console.log(`CLIO_CLIENT_ID=standin CLIO_CLIENT_SECRET=standin-secret CLIO_URL=${clio.url} npm start`);
  const stop = async () => {
    await dropbox.stop();
    await clio.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
};

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

import { nginxConfig } from './nginx';

test('the main configuration keeps everything nginx writes in its folder, around the given site', () => {
  const config = nginxConfig({
    dir: '/tmp/site',
    http: ['include /tmp/site/site.conf;'],
    modules: ['/modules/brotli.so'],
    accessLogFormat: '$request_method|$uri|$status',
    readyUrl: 'http://127.0.0.1:1/',
  });
  expect(config).toMatch(/^load_module \/modules\/brotli\.so;\n/);
  expect(config).toContain('daemon off;');
  expect(config).toContain('pid /tmp/site/nginx.pid;');
  expect(config).toContain('error_log /tmp/site/error.log info;');
  expect(config).toContain(
    "  log_format custom '$request_method|$uri|$status';\n  access_log /tmp/site/access.log custom;",
  );
  for (const temp of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
    expect(config).toContain(`${temp}_temp_path /tmp/site/${temp}-temp;`);
  expect(config).toMatch(/ {2}include \/tmp\/site\/site\.conf;\n}\n$/);
});

test("without a format, nginx's own", () => {
  const config = nginxConfig({ dir: '/tmp/site', http: [], readyUrl: 'http://127.0.0.1:1/' });
  expect(config).toContain('  access_log /tmp/site/access.log;');
  expect(config).not.toContain('log_format');
  expect(config).not.toContain('load_module');
});

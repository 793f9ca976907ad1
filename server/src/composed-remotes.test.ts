import { composedRemotesFromEnv } from './composed-remotes';
import { envProblemOf } from './testing/env-problem';

describe('composedRemotesFromEnv', () => {
  it('composes the registry alone when no remote is added', () => {
    expect(composedRemotesFromEnv({})).toEqual({ added: [], grants: {} });
  });

  it('reads each added remote with its URL and grant, and a registry remote whose grant is replaced', () => {
    expect(
      composedRemotesFromEnv({
        ADDED_REMOTES: 'news, blog',
        REMOTE_NEWS_URL: 'https://news.example.com/mf-manifest.json',
        REMOTE_NEWS_PATHS: '/news,/news/:storyId',
        REMOTE_BLOG_URL: 'https://blog.example.com/mf-manifest.json',
        REMOTE_BLOG_PATHS: '/blog',
        REMOTE_GIFTS_PATHS: '/game',
      }),
    ).toEqual({
      added: [
        { name: 'news', url: 'https://news.example.com/mf-manifest.json' },
        { name: 'blog', url: 'https://blog.example.com/mf-manifest.json' },
      ],
      grants: { gifts: ['/game'], news: ['/news', '/news/:storyId'], blog: ['/blog'] },
    });
  });

  it('names every problem at once: a bad name, a registry name, a missing URL and grant, a bad path', () => {
    const message = envProblemOf(() =>
      composedRemotesFromEnv({ ADDED_REMOTES: 'News!,gifts,news', REMOTE_GIFTS_PATHS: 'game' }),
    );
    expect(message).toContain('ADDED_REMOTES names "News!", which is no remote name');
    expect(message).toContain('ADDED_REMOTES names gifts, which this build composes already');
    expect(message).toContain('REMOTE_GIFTS_PATHS: game is no route path');
    expect(message).toContain('REMOTE_NEWS_PATHS is not set');
    expect(message).toContain("REMOTE_NEWS_URL is not set: the news remote's mf-manifest.json URL");
  });

  it('refuses a name telemetry keeps for another part, and a path granted to two remotes, as the host does', () => {
    const message = envProblemOf(() =>
      composedRemotesFromEnv({
        ADDED_REMOTES: 'host,news',
        REMOTE_HOST_URL: 'https://x.example.com/mf-manifest.json',
        REMOTE_HOST_PATHS: '/x',
        REMOTE_NEWS_URL: 'https://news.example.com/mf-manifest.json',
        REMOTE_NEWS_PATHS: '/About',
      }),
    );
    expect(message).toContain('ADDED_REMOTES names "host", which is no remote name');
    expect(message).toContain('the path /About is granted to both content and news');
  });
});

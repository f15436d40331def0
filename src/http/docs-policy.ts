/**
 * The Content-Security-Policy of the API docs page (Swagger UI), from @fastify/swagger-ui's own:
 * without `upgrade-insecure-requests` on a service that answers over http (it would send the
 * page's own scripts and styles to https), and allowing by its hash the one `<style>` element
 * that Swagger UI's bundle adds (swagger-ui-dist as @fastify/swagger-ui 6 ships it; a new bundle
 * with another style shows as a violation in test/browser/api-docs.test.ts).
 */
const SWAGGER_UI_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='"

export function docsPolicy(publicUrl: URL): (header: string) => string {
  return (header) => {
    const styled = header.replace(/style-src ([^;]*);/, `style-src $1 ${SWAGGER_UI_STYLE};`)
    return publicUrl.protocol === 'https:'
      ? styled
      : styled.replace(/\s*upgrade-insecure-requests;?/, '')
  }
}

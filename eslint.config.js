import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  // scratch/ holds local, untracked measuring scripts (.gitignore).
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'test-artifacts/**',
      'data/**',
      'scratch/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
)

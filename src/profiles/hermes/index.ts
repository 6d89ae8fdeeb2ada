export * from '../../util/py-strings.ts';
export * from './config.ts';
export * from './search.ts';
export * from './listing.ts';
export * from './bridge.ts';
export * from './profile.ts';
export * from './facts.ts';

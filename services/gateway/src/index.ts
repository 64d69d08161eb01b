export { createGateway } from './app.ts';

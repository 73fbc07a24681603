// The rspack loader for message catalogues (see catalog.mjs): JSON in, compiled JSON out.
module.exports = function catalogLoader(source) {
  const callback = this.async();
  import('./catalog.mjs').then(
    ({ compileCatalog }) => callback(null, compileCatalog(String(source), this.resourcePath)),
    (error) => callback(error),
  );
};

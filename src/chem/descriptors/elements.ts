/**
 * Per-element tables used by the CDK-compatible descriptors, indexed by atomic number.
 * Sources: CDK (cdk/cdk; the values were read from the class files of CDK 2.8, Debian
 * libcdk-java 1:2.8-2; the descriptors computed with them reproduce CDK's reference values,
 * docs/descriptors.md "What is checked against what"), IUPAC/NIST atomic data.
 */

/** CDK APolDescriptor/BPolDescriptor atomic polarizabilities (Å³), by atomic number (CRC table). */
export const POLARIZABILITY: readonly number[] = [
  0, 0.666793, 0.204956, 24.3, 5.6, 3.03, 1.76, 1.1, 0.802, 0.557, 0.3956, 23.6, 10.6, 6.8, 5.38, 3.63, 2.9,
  2.18, 1.6411, 43.4, 22.8, 17.8, 14.6, 12.4, 11.6, 9.4, 8.4, 7.5, 6.8, 6.1, 7.1, 8.12, 6.07, 4.31, 3.77, 3.05,
  2.4844, 47.3, 27.6, 22.7, 17.9, 15.7, 12.8, 11.4, 9.6, 8.6, 4.8, 7.2, 7.2, 10.2, 7.7, 6.6, 5.5, 5.35, 4.044,
  59.6, 39.7, 31.1, 29.6, 28.2, 31.4, 30.1, 28.8, 27.7, 23.5, 25.5, 24.5, 23.6, 22.7, 21.8, 21, 21.9, 16.2,
  13.1, 11.1, 9.7, 8.5, 7.6, 6.5, 5.8, 5.7, 7.6, 6.8, 7.4, 6.8, 6, 5.3, 48.7, 38.3, 32.1, 32.1, 25.4, 27.4,
  24.8, 24.5, 23.3, 23, 22.7, 20.5, 19.7, 23.8, 18.2, 17.5,
];
export const H_POLARIZABILITY = 0.666793;

/**
 * CDK AtomValenceTool: valence electrons by element (absent = unknown, the valence chi index
 * cannot be computed). Note He = 8 and Cu/Mn/Co = 2 as in CDK.
 */
export const VALENCE_ELECTRONS: ReadonlyMap<number, number> = new Map([
  [1, 1], [2, 8], [10, 8], [18, 8], [36, 8], [54, 8], [80, 2], [86, 8], [3, 1], [4, 2], [5, 3], [6, 4], [7, 5],
  [8, 6], [9, 7], [11, 1], [12, 2], [13, 3], [14, 4], [15, 5], [16, 6], [17, 7], [19, 1], [20, 2], [31, 3],
  [32, 4], [33, 5], [34, 6], [35, 7], [37, 1], [38, 2], [49, 3], [50, 4], [51, 5], [52, 6], [53, 7], [55, 1],
  [56, 2], [81, 3], [82, 4], [83, 5], [84, 6], [85, 7], [87, 1], [88, 2], [29, 2], [25, 2], [27, 2],
]);

/**
 * Exact mass of the most abundant isotope (u), as CDK's `Isotopes.getMajorIsotope` (BCUTw).
 * Elements not listed make BCUTw absent.
 */
export const MAJOR_ISOTOPE_MASS: ReadonlyMap<number, number> = new Map([
  [1, 1.00782503207], [3, 7.01600455], [4, 9.0121822], [5, 11.0093054], [6, 12.0], [7, 14.0030740048],
  [8, 15.99491461956], [9, 18.99840322], [11, 22.9897692809], [12, 23.9850417], [13, 26.98153863],
  [14, 27.9769265325], [15, 30.97376163], [16, 31.972071], [17, 34.96885268], [19, 38.96370668],
  [20, 39.96259098], [26, 55.9349375], [29, 62.9295975], [30, 63.9291422], [32, 73.9211778],
  [33, 74.9215965], [34, 79.9165213], [35, 78.9183371], [50, 119.9021947], [53, 126.904473],
  [80, 201.970643], [82, 207.9766521],
]);

/**
 * Natural (abundance-weighted) atomic masses (u) for the mass autocorrelation (ATSm). CDK
 * derives them from its isotope table (C = 12.010735896788); other elements use the IUPAC
 * standard atomic weights, which agree with CDK's to ≈ 1e-4 relative.
 */
export const NATURAL_MASS: ReadonlyMap<number, number> = new Map([
  [1, 1.00794075382579], [3, 6.94], [4, 9.0121831], [5, 10.81], [6, 12.010735896788], [7, 14.006703211],
  [8, 15.999404924], [9, 18.99840322], [11, 22.98976928], [12, 24.305], [13, 26.9815385], [14, 28.0855],
  [15, 30.97376163], [16, 32.064787406], [17, 35.452937833], [19, 39.0983], [20, 40.078], [26, 55.845],
  [29, 63.546], [30, 65.38], [32, 72.63], [33, 74.921595], [34, 78.971], [35, 79.903527780], [50, 118.71],
  [53, 126.904473], [80, 200.592], [82, 207.2],
]);
/** The carbon mass CDK divides by in ATSm. */
export const CARBON_NATURAL_MASS = 12.010735896788;

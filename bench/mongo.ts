/** The benchmarks' MongoDB database, dropped when a run ends (the driver loaded only when a run used MongoDB). */
export async function dropMongo(uri: string): Promise<void> {
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(uri);
  try {
    await client.db().dropDatabase();
  } finally {
    await client.close();
  }
}

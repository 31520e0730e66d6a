import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;

import edu.cmu.meteor.aligner.Stemmer;
import edu.cmu.meteor.util.Constants;

/**
 * Golden stems from the METEOR 1.5 jar.
 *
 * Usage: java -cp meteor-1.5.jar:. StemOracle LANGUAGE [fresh] < words > pairs
 *
 * LANGUAGE is the jar's long name (english, german, ...). Each input line is
 * one word (UTF-8); each output line is "word TAB stem". The stemmer comes
 * from Constants.newStemmer, i.e. the same SnowballStemmerWrapper the aligner
 * uses. With "fresh" a new stemmer is built for every word (to detect state
 * carried over between calls).
 */
public class StemOracle {
    public static void main(String[] args) throws Exception {
        if (args.length < 1 || args.length > 2) {
            System.err.println("Usage: StemOracle LANGUAGE [fresh] < words > pairs");
            System.exit(2);
        }
        String language = args[0];
        boolean fresh = args.length == 2 && args[1].equals("fresh");
        Stemmer stemmer = Constants.newStemmer(language);
        BufferedReader in = new BufferedReader(
                new InputStreamReader(System.in, StandardCharsets.UTF_8));
        BufferedWriter out = new BufferedWriter(
                new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        String word;
        while ((word = in.readLine()) != null) {
            if (fresh)
                stemmer = Constants.newStemmer(language);
            out.write(word);
            out.write('\t');
            out.write(stemmer.stem(word));
            out.write('\n');
        }
        out.flush();
    }
}

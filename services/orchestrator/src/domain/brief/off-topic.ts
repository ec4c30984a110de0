/**
 * Requests outside clothing that a shopping stylist declines: homework, recipes, the weather
 * forecast, jokes and stories, medical, legal and money questions, coding and computers, trivia
 * and the news, and questions about the service itself ("how does this work", "who are you"). Such a subject only makes a message off-topic when the message says nothing
 * about clothes (see `CLOTHING_TALK` and the reading's constraints): "a jacket for the
 * weather", "a costume for the school play" and "shoes for my maths teacher's wedding" are
 * shopping.
 */
export const OFF_TOPIC_SUBJECT = new RegExp(
  [
    // School work
    String.raw`\b(?:home ?work|assignments?|essays?|maths?|algebra|geometry|equations?|fractions|physics|chemistry|biology|science (?:project|fair|test|homework)|history (?:project|test|homework)|revision|exams?|spelling test|book report|times tables?)\b`,
    // Cooking
    String.raw`\b(?:recipes?|cook(?:ing)?|bake|baking|dinner ideas?|lunch ideas?|meal plan|lasagne|lasagna|pasta|cake|cookies)\b`,
    // The weather as a forecast, not as what to dress for
    String.raw`\b(?:weather (?:forecast|tomorrow|today|this weekend|like)|forecast|will it rain|is it going to rain|temperature (?:tomorrow|today|outside))\b`,
    // Entertainment
    String.raw`\b(?:jokes?|riddles?|poems?|bedtime story|short story|stories|movies?|films?|tv shows?|series to watch|songs?|lyrics|video games?|play a game)\b`,
    // Ordering anything but clothes
    String.raw`\b(?:pizza|takeaway|take-away|groceries|taxi|uber|flights?|train tickets|hotel room|cinema tickets)\b`,
    // Medical
    String.raw`\b(?:fever|medicine|medication|paracetamol|ibuprofen|doctor|symptoms?|rash|vaccines?|diagnos\w*|pregnan\w*|headache|cough|allergic reaction|dosage)\b`,
    // Legal and money
    String.raw`\b(?:landlord|lawyer|legal(?:ly)?|lawsuit|sue|divorce|custody|contract|tenancy|deposit back|taxes|tax return|mortgage|invest(?:ing|ment)?|stock market|crypto|bitcoin|loan)\b`,
    // Coding and computers
    String.raw`\b(?:coding|programming|write (?:me )?(?:some |a |the )?(?:code|program)|my code|this code|python|javascript|java|sql|html|css|script|debug|bug in|compile|excel|spreadsheet|wifi|wi-fi|router|laptop|computer|printer|password|iphone|android|app crash\w*)\b`,
    // The service itself: how it works, who or what answers
    String.raw`\b(?:how (?:(?:does|do|did|will|would|can|could) )?(?:this|it|you|the app|the service|approvals?|payments?|budgets?|buying|ordering) work|what can you do|who are you|are you (?:a |an )?(?:bot|robot|human|real person|person|ai)|(?:speak|talk) to (?:a |an |the )?(?:human|real person|person|manager|customer service))\b`,
    // Trivia, the news, the time
    String.raw`\b(?:capital of|who won|who is the president|what time is it|time (?:is it )?in|translate|the news|the score|population of|how far is|meaning of life)\b`,
  ].join('|'),
);

/** Words that keep a message about clothes whatever else it mentions. */
export const CLOTHING_TALK =
  /\b(?:wear(?:ing)?|wore|outfits?|clothes|clothing|dressed|dress up|look(?:s)? (?:good|nice|smart)|style|styling|wardrobe|fits?|size|sizes|uniform|kit|costume|gifts?|presents?|shopping|looking for|find(?:ing)? (?:me |her |him |them |us )?(?:something|some|an?)|something (?:nice |smart |comfy |warm )?(?:to|for))\b/;

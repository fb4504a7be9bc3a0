/* parse_rate.c: xaiform-parse-rate FILE: the CPU time libxml2's pull parser
 * (the reader xaiform uses, with its options) takes to visit every node and
 * attribute of FILE, building nothing: the floor under any conversion of
 * FILE (docs/scaling.md, the 100 MB synthetic document). */
#include <libxml/xmlreader.h>
#include <stdio.h>
#include <time.h>

int
main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: xaiform-parse-rate FILE.xaif\n");
        return 2;
    }
    struct timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    xmlTextReaderPtr r = xmlReaderForFile(argv[1], NULL,
                                          XML_PARSE_NONET | XML_PARSE_BIG_LINES |
                                              XML_PARSE_COMPACT | XML_PARSE_NOBLANKS);
    if (!r)
        return 1;
    long nodes = 0, attrs = 0;
    int ret;
    while ((ret = xmlTextReaderRead(r)) == 1) {
        nodes++;
        if (xmlTextReaderNodeType(r) == XML_READER_TYPE_ELEMENT)
            while (xmlTextReaderMoveToNextAttribute(r) == 1)
                attrs++;
    }
    xmlFreeTextReader(r);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    printf("%s: %ld nodes, %ld attributes, %.3f s of CPU to parse\n", argv[1], nodes, attrs,
           (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
    return ret == 0 ? 0 : 1;
}
